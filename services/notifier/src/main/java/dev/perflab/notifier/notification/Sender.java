package dev.perflab.notifier.notification;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.perflab.notifier.NotifierProperties;

/**
 * Sends one claimed notification through its channel's provider and settles it on the same claim: SENT, due again
 * after a backoff, or FAILED (a permanent refusal, or the attempts used up). Between the provider's acceptance and
 * the SENT update lies the at-least-once window: a sender that dies there leaves the row PENDING, its lease runs out
 * and it is sent again with the same message id.
 */
@Component
class Sender {

	private static final Logger log = LoggerFactory.getLogger(Sender.class);

	private final Map<Channel, Provider> providers = new EnumMap<>(Channel.class);

	private final NotificationStore store;

	private final NotifierProperties.Sweeper settings;

	private final Map<Channel, Map<String, Counter>> deliveries = new EnumMap<>(Channel.class);

	private final Map<Channel, Timer> timers = new EnumMap<>(Channel.class);

	private final Counter sent;

	private final Counter failed;

	Sender(List<Provider> providers, NotificationStore store, NotifierProperties properties, MeterRegistry meters) {
		this.store = store;
		this.settings = properties.sweeper();
		for (Provider provider : providers) {
			this.providers.put(provider.channel(), provider);
		}
		for (Channel channel : Channel.values()) {
			String tag = channel.name().toLowerCase(java.util.Locale.ROOT);
			Map<String, Counter> byResult = new java.util.HashMap<>();
			for (String result : List.of("sent", "retry", "failed")) {
				byResult.put(result, Counter.builder("perflab.notifier.deliveries")
					.description("provider calls by channel and result").tag("channel", tag).tag("result", result)
					.register(meters));
			}
			deliveries.put(channel, byResult);
			timers.put(channel, Timer.builder("perflab.notifier.provider").description("one provider call")
				.tag("channel", tag).publishPercentileHistogram().register(meters));
		}
		this.sent = Notifications.counter(meters, "sent");
		this.failed = Notifications.counter(meters, "failed");
	}

	void deliver(Claimed n) {
		deliver(n, store);
	}

	/** Sends and records the outcome through {@code store} (the lab baseline: inside the registration's transaction). */
	void deliver(Claimed n, NotificationStore store) {
		Timer.Sample sample = Timer.start();
		try {
			providers.get(n.channel()).send(n);
			sample.stop(timers.get(n.channel()));
			count(n, "sent");
			if (store.markSent(n)) {
				sent.increment();
			}
		}
		catch (DeliveryFailure e) {
			sample.stop(timers.get(n.channel()));
			if (e.permanent() || n.attempt() >= settings.maxAttempts()) {
				count(n, "failed");
				log.warn("notification {} failed for good after {} attempts ({}): {}", n.id(), n.attempt(),
						e.reason().slug, e.getMessage());
				if (store.markFailed(n, e)) {
					failed.increment();
				}
			}
			else {
				count(n, "retry");
				log.debug("notification {} attempt {} failed ({}), retried: {}", n.id(), n.attempt(), e.reason().slug,
						e.getMessage());
				store.markRetry(n, settings.backoffAfter(n.attempt()), e);
			}
		}
	}

	private void count(Claimed n, String result) {
		deliveries.get(n.channel()).get(result).increment();
	}
}
