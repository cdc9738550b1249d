package dev.perflab.notifier.notification;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;

import dev.perflab.notifier.NotifierProperties;

/**
 * An SMS is one HTTP POST to the provider, carrying the notification's message id as {@code Idempotency-Key}; the
 * connect and the whole exchange are bounded (seed 001's provider took 0.5 s, and a provider that hangs must not
 * keep a sender forever). 408, 429 and 5xx are retried; any other 4xx is the message's fault and is not.
 */
@Component
class SmsProvider implements Provider {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient client;

	private final NotifierProperties.Sms settings;

	private final URI url;

	SmsProvider(NotifierProperties properties) {
		this.settings = properties.sms();
		this.url = URI.create(settings.url());
		this.client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(settings.connectTimeout())
			.build();
	}

	@Override
	public Channel channel() {
		return Channel.SMS;
	}

	@Override
	public void send(Claimed notification) throws DeliveryFailure {
		HttpRequest request = HttpRequest.newBuilder(url)
			.timeout(settings.timeout())
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", notification.messageId())
			.POST(HttpRequest.BodyPublishers.ofString(
					JSON.writeValueAsString(Map.of("to", notification.recipient(), "text", notification.body()))))
			.build();
		HttpResponse<String> response;
		try {
			response = client.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException e) {
			throw new DeliveryFailure(false, FailureReason.PROVIDER_UNREACHABLE, "no answer from " + url + ": " + e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new DeliveryFailure(false, FailureReason.PROVIDER_UNREACHABLE, "interrupted (shutting down)");
		}
		int status = response.statusCode();
		if (status / 100 == 2) {
			return;
		}
		boolean retry = status == 408 || status == 429 || status >= 500;
		String body = response.body();
		throw new DeliveryFailure(!retry, retry ? FailureReason.PROVIDER_UNAVAILABLE : FailureReason.PROVIDER_REJECTED,
				"HTTP " + status + " " + (body.length() > 200 ? body.substring(0, 200) : body));
	}
}
