package dev.perflab.send;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.json.JsonMapper;

import dev.perflab.identity.Identity;
import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real HTTP to the send service under test, as mail's relay (its signed identity) and the gateway (a user's signed
 * identity) would call it.
 */
record SendApi(int port) {

	static final JsonMapper JSON = JsonMapper.builder().build();

	private static final HttpClient CLIENT = HttpClient.newHttpClient();

	/** this run's job ids: a rerun against the same database never meets its earlier jobs */
	static final String RUN = java.util.UUID.randomUUID().toString().substring(0, 13);

	/** the id mail's relay would give mail {@code no}'s hand-off */
	static String jobId(long no) {
		return "t" + RUN + "-" + no;
	}

	/** Pushes a job for mail {@code no} under its own job id, as mail's relay does. */
	HttpResponse<String> put(long mailNo, String body) {
		return put(jobId(mailNo), mailNo, body);
	}

	/** Pushes a job for mail {@code mailNo} under {@code jobId}. */
	HttpResponse<String> put(String jobId, long mailNo, String body) {
		String withNo = body.startsWith("{") && !body.contains("\"mail_no\"") ? "{\"mail_no\":" + mailNo + "," + body.substring(1)
				: body;
		return put("/internal/jobs/" + jobId, "application/json", withNo);
	}

	HttpResponse<String> put(String path, String contentType, String body) {
		return put(path, contentType, body, TestIdentity.mail("send", "PUT", path, body.getBytes(StandardCharsets.UTF_8)));
	}

	/** A PUT carrying this identity token (none when null) and any other headers (name, value, ...). */
	HttpResponse<String> put(String path, String contentType, String body, String identity, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
			.PUT(HttpRequest.BodyPublishers.ofString(body));
		if (identity != null) {
			request.header(Identity.HEADER, identity);
		}
		if (headers.length > 0) {
			request.headers(headers);
		}
		return send(request);
	}

	HttpResponse<String> delivery(String user, String path) {
		return deliveryWith(user == null ? null : TestIdentity.user(user, "1", "send"), path);
	}

	/** A delivery read carrying this identity token (none when null) and any other headers (name, value, ...). */
	HttpResponse<String> deliveryWith(String identity, String path, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(path));
		if (identity != null) {
			request.header(Identity.HEADER, identity);
		}
		if (headers.length > 0) {
			request.headers(headers);
		}
		return send(request.GET());
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + port + path);
	}

	private static HttpResponse<String> send(HttpRequest.Builder request) {
		try {
			return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException | InterruptedException e) {
			throw new IllegalStateException(e);
		}
	}

	/** Polls the delivery status until the job is done (20 s at most) and returns it; any answer but 200 fails at once. */
	Map<?, ?> awaitDone(String owner, long no) {
		AtomicReference<Map<?, ?>> last = new AtomicReference<>();
		try {
			await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
				HttpResponse<String> response = delivery(owner, "/v2/mails/" + no + "/delivery");
				assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
				last.set(json(response));
				return "done".equals(last.get().get("status"));
			});
		}
		catch (ConditionTimeoutException e) {
			throw new AssertionError("delivery of mail %d not done in 20 s: %s".formatted(no, last.get()), e);
		}
		return last.get();
	}

	static Map<?, ?> json(HttpResponse<String> response) {
		return JSON.readValue(response.body(), Map.class);
	}

	/** A job body as mail's relay sends it, with a real EML. */
	static String job(String owner, List<String> to, List<String> cc, List<String> bcc, boolean separate, String certKey) {
		Map<String, Object> body = new java.util.LinkedHashMap<>();
		body.put("office", 1);
		body.put("owner", owner);
		body.put("from", owner + "@perflab.test");
		body.put("to", to);
		body.put("cc", cc);
		body.put("bcc", bcc);
		body.put("separate_send", separate);
		if (certKey != null) {
			Map<String, String> keys = new java.util.LinkedHashMap<>();
			for (List<String> list : List.of(to, cc, bcc)) {
				list.forEach(address -> keys.put(address, receiptKey(certKey, address)));
			}
			body.put("receipt_keys", keys);
		}
		body.put("eml", Base64.getEncoder().encodeToString(eml(owner + "@perflab.test", to, cc, "hello " + to)));
		return JSON.writeValueAsString(body);
	}

	/** a recipient's read-receipt key as mail would make it: 22+ URL-safe characters, one per recipient */
	static String receiptKey(String seed, String address) {
		try {
			byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
				.digest((seed + "/" + address).getBytes(java.nio.charset.StandardCharsets.UTF_8));
			return Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(hash, 16));
		}
		catch (java.security.NoSuchAlgorithmException e) {
			throw new IllegalStateException(e);
		}
	}

	static byte[] eml(String from, List<String> to, List<String> cc, String subject) {
		try {
			MimeMessage message = new MimeMessage(Session.getInstance(new Properties()));
			message.setFrom(new InternetAddress(from));
			for (String address : to) {
				message.addRecipient(Message.RecipientType.TO, new InternetAddress(address));
			}
			for (String address : cc) {
				message.addRecipient(Message.RecipientType.CC, new InternetAddress(address));
			}
			message.setSubject(subject, "UTF-8");
			message.setText("contentcontent121212", "UTF-8");
			message.saveChanges();
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			message.writeTo(out);
			return out.toByteArray();
		}
		catch (MessagingException | IOException e) {
			throw new IllegalStateException(e);
		}
	}
}
