package dev.perflab.send;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import dev.perflab.platform.work.ClaimLoop;

/**
 * @param smtp the relay every message goes to
 * @param delivery how many messages are in flight and how failures are retried
 * @param receiptBaseUrl where the read-receipt links in delivered mail point (the gateway)
 * @param maxEml the largest EML a job may carry
 */
@ConfigurationProperties("perflab.send")
public record SendProperties(@DefaultValue Smtp smtp, @DefaultValue Delivery delivery,
		@DefaultValue("http://127.0.0.1:8080") String receiptBaseUrl, @DefaultValue("10MB") DataSize maxEml) {

	/**
	 * @param host relay host
	 * @param port relay port
	 * @param connectTimeout connect timeout
	 * @param timeout read and write timeout of one SMTP command
	 * @param heloName the name sent in EHLO
	 */
	public record Smtp(@DefaultValue("127.0.0.1") String host, @DefaultValue("13025") int port,
			@DefaultValue("2s") Duration connectTimeout, @DefaultValue("10s") Duration timeout,
			@DefaultValue("send.perflab.local") String heloName) {
	}

	/**
	 * @param concurrency jobs delivered at once per instance (bounded: the relay is a shared resource)
	 * @param pollInterval how often an idle worker looks for due jobs (a new job also wakes it at once)
	 * @param lease how long a claimed job stays with one worker unless renewed; its worker renews it after each message
	 *        and every third of it while sending, so only an instance that dies or stalls mid-job loses it after this
	 * @param maxAttempts attempts before a recipient that keeps failing transiently is marked failed
	 * @param backoff first retry delay, doubled per attempt
	 * @param maxBackoff the longest retry delay
	 * @param retention how long a finished job and its recipients' status stay readable
	 */
	public record Delivery(@DefaultValue("8") int concurrency, @DefaultValue("200ms") Duration pollInterval,
			@DefaultValue("30s") Duration lease, @DefaultValue("12") int maxAttempts,
			@DefaultValue("1s") Duration backoff, @DefaultValue("60s") Duration maxBackoff,
			@DefaultValue("30d") Duration retention) {

		public Duration backoffAfter(int attempts) {
			return ClaimLoop.backoff(backoff, maxBackoff, attempts);
		}
	}
}
