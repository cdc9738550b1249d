package dev.perflab.send.job;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.platform.ProblemException;
import dev.perflab.send.SendProperties;
import dev.perflab.send.delivery.DeliveryWorker;

/**
 * Takes a job in, idempotently by mail number: the job and one row per recipient commit together before the
 * answer, so an accepted job survives any crash after it. The same job again is a no-op; another job under a
 * number already taken is a 409.
 */
@Service
class Jobs {

	private static final Pattern CERT_KEY = Pattern.compile("[A-Za-z0-9_-]{1,64}");

	private static final int MAX_RECIPIENTS = 300;

	private final JdbcClient jdbc;

	private final TransactionTemplate tx;

	private final DeliveryWorker worker;

	private final long maxEml;

	Jobs(JdbcClient jdbc, TransactionTemplate tx, DeliveryWorker worker, SendProperties properties) {
		this.jdbc = jdbc;
		this.tx = tx;
		this.worker = worker;
		this.maxEml = properties.maxEml().toBytes();
	}

	/** @return true when this call created the job, false when it was already here */
	boolean accept(long mailNo, JobRequest request) {
		String from = Addresses.parse("from", request.from());
		Map<String, String> recipients = recipients(request);
		if (request.certKey() != null && !CERT_KEY.matcher(request.certKey()).matches()) {
			throw ProblemException.badRequest("invalid-field", "cert_key must be 1-64 of [A-Za-z0-9_-]");
		}
		byte[] eml = decode(request.eml());
		String digest = digest(mailNo, request, from, recipients, eml);
		try {
			tx.executeWithoutResult(status -> {
				insert(mailNo, request, from, recipients, eml, digest);
				worker.wakeAfterCommit();
			});
			return true;
		}
		catch (DuplicateKeyException e) {
			String existing = jdbc.sql("SELECT digest FROM delivery_job WHERE mail_no = ?").param(mailNo)
				.query(String.class).single();
			if (!existing.equals(digest)) {
				throw new ProblemException(HttpStatus.CONFLICT, "job-conflict",
						"Mail " + mailNo + " already has a different delivery job");
			}
			return false;
		}
	}

	private void insert(long mailNo, JobRequest request, String from, Map<String, String> recipients, byte[] eml,
			String digest) {
		Timestamp now = Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MICROS));
		jdbc.sql("""
				INSERT INTO delivery_job (mail_no, office_no, owner, sender, separate_send, cert_key, eml, digest, status,
				  next_attempt_at, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?)""")
			.params(mailNo, request.office(), request.owner(), from, request.separateSend(), request.certKey(), eml,
					digest, now, now)
			.update();
		for (Map.Entry<String, String> recipient : recipients.entrySet()) {
			jdbc.sql("INSERT INTO recipient (mail_no, email, kind, status) VALUES (?, ?, ?, 'PENDING')")
				.params(mailNo, recipient.getKey(), recipient.getValue())
				.update();
		}
	}

	/** address → kind (to, cc, bcc); an address listed twice is delivered once, under its first kind */
	private static Map<String, String> recipients(JobRequest request) {
		Map<String, String> all = new LinkedHashMap<>();
		for (String kind : List.of("to", "cc", "bcc")) {
			List<String> list = switch (kind) {
				case "to" -> JobRequest.orEmpty(request.to());
				case "cc" -> JobRequest.orEmpty(request.cc());
				default -> JobRequest.orEmpty(request.bcc());
			};
			for (String value : list) {
				all.putIfAbsent(Addresses.parse(kind, value), kind);
			}
		}
		if (all.isEmpty() || all.size() > MAX_RECIPIENTS) {
			throw ProblemException.badRequest("invalid-recipients", "A job needs 1 to " + MAX_RECIPIENTS + " recipients");
		}
		return all;
	}

	private byte[] decode(String base64) {
		if (base64.length() > maxEml / 3 * 4 + 4) {
			throw new ProblemException(HttpStatus.CONTENT_TOO_LARGE, "eml-too-large", "The EML is larger than " + maxEml + " bytes");
		}
		try {
			byte[] eml = Base64.getDecoder().decode(base64);
			if (eml.length == 0) {
				throw ProblemException.badRequest("invalid-field", "eml is empty");
			}
			return eml;
		}
		catch (IllegalArgumentException e) {
			throw ProblemException.badRequest("invalid-field", "eml is not valid base64");
		}
	}

	private static String digest(long mailNo, JobRequest request, String from, Map<String, String> recipients, byte[] eml) {
		try {
			MessageDigest sha = MessageDigest.getInstance("SHA-256");
			String head = mailNo + "\n" + request.office() + "\n" + request.owner() + "\n" + from + "\n" + recipients + "\n"
					+ request.separateSend() + "\n" + request.certKey() + "\n";
			sha.update(head.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(sha.digest(eml));
		}
		catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException(e);
		}
	}
}
