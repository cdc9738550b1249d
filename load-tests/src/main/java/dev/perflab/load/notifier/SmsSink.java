package dev.perflab.load.notifier;

import java.time.Duration;
import java.util.Map;

import dev.perflab.load.lib.Setup;
import dev.perflab.load.lib.SetupFailed;

/**
 * The SMS endpoint of the local stack (tools/sms-sink) as a run reads it: what arrived so far, and a wait for the
 * backlog to drain. No URL: nothing is read, and every answer is null.
 */
final class SmsSink {

	/** What {@code GET /count} answers. */
	record Count(long deliveries, long duplicates, long refused) {
	}

	private final Setup http;

	private final Duration step;

	SmsSink(String url, Duration step) {
		String base = url.replaceAll("/+$", "");
		this.http = base.isEmpty() ? null : new Setup(base);
		this.step = step;
	}

	/** The endpoint's counts, or null when there is no endpoint or it did not answer 200. */
	Count count() {
		if (this.http == null) {
			return null;
		}
		try {
			Setup.Reply reply = this.http.get("/count", Map.of());
			return reply.status() != 200 ? null : new Count(reply.json("deliveries").asLong(),
					reply.json("duplicates").asLong(), reply.json("refused").asLong());
		}
		catch (SetupFailed ex) {
			return null;
		}
	}

	/**
	 * Waits until the endpoint has had no new SMS for {@code quiet} steps in a row (the backlog drained), at most
	 * {@code limit} steps, and answers its counts then; null without an endpoint.
	 */
	Count drain(int quiet, int limit) throws InterruptedException {
		Count last = count();
		if (last == null) {
			return null;
		}
		int still = 0;
		for (int waited = 0; waited < limit && still < quiet; waited++) {
			Thread.sleep(this.step);
			Count now = count();
			still = now != null && now.deliveries() == last.deliveries() ? still + 1 : 0;
			last = now != null ? now : last;
		}
		return last;
	}

}
