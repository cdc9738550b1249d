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
import dev.perflab.platform.smtp.MailAddress;
import dev.perflab.send.SendProperties;
import dev.perflab.send.delivery.DeliveryWorker;

/**
 * Takes a job in, idempotently by the id mail gave the hand-off: the job and one row per recipient commit together
 * before the answer, so an accepted job survives any crash after it. The same job again is a no-op; another job
 * under an id already taken is a 409. The mail number is data: it repeats once mail's database is recreated.
 */
@Service
class Jobs {

	/** mail's read-receipt keys: 128 random bits, URL-safe base64 (22 characters) or longer */
	private static final Pattern RECEIPT_KEY = Pattern.compile("[A-Za-z0-9_-]{22,64}");

	/** mail's hand-off ids: UUIDs */
	static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9-]{16,64}");

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
	boolean accept(String jobId, JobRequest request) {
		String from = address("from", request.from());
		Map<String, String> recipients = recipients(request);
		Map<String, String> receiptKeys = receiptKeys(request, recipients);
		byte[] eml = decode(request.eml());
		String digest = digest(jobId, request, from, recipients, receiptKeys, eml);
		try {
			tx.executeWithoutResult(status -> {
				insert(jobId, request, from, recipients, receiptKeys, eml, digest);
				worker.wakeAfterCommit();
			});
			return true;
		}
		catch (DuplicateKeyException e) {
			String existing = jdbc.sql("SELECT digest FROM delivery_job WHERE job_id = ?").param(jobId)
				.query(String.class).single();
			if (!existing.equals(digest)) {
				throw new ProblemException(HttpStatus.CONFLICT, "job-conflict",
						"Job " + jobId + " already exists with different content");
			}
			return false;
		}
	}

	private void insert(String jobId, JobRequest request, String from, Map<String, String> recipients,
			Map<String, String> receiptKeys, byte[] eml, String digest) {
		Timestamp now = Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MICROS));
		jdbc.sql("""
				INSERT INTO delivery_job (job_id, mail_no, office_no, owner, sender, separate_send, eml, digest, status,
				  next_attempt_at, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?)""")
			.params(jobId, request.mailNo(), request.office(), request.owner(), from, request.separateSend(), eml,
					digest, now, now)
			.update();
		for (Map.Entry<String, String> recipient : recipients.entrySet()) {
			jdbc.sql("""
					INSERT INTO recipient (job_id, mail_no, email, kind, receipt_key, status)
					VALUES (?, ?, ?, ?, ?, 'PENDING')""")
				.params(jobId, request.mailNo(), recipient.getKey(), recipient.getValue(),
						receiptKeys.get(recipient.getKey()))
				.update();
		}
	}

	/** address → key; with read receipts every recipient has their own key, and no key names someone else */
	private static Map<String, String> receiptKeys(JobRequest request, Map<String, String> recipients) {
		if (request.receiptKeys().isEmpty()) {
			return Map.of();
		}
		Map<String, String> keys = new LinkedHashMap<>();
		request.receiptKeys().forEach((address, key) -> {
			if (key == null || !RECEIPT_KEY.matcher(key).matches()) {
				throw ProblemException.badRequest("invalid-field", "receipt_keys holds a key that is not 22-64 of [A-Za-z0-9_-]");
			}
			keys.put(address("receipt_keys", address), key);
		});
		if (!keys.keySet().equals(recipients.keySet()) || keys.values().stream().distinct().count() != keys.size()) {
			throw ProblemException.badRequest("invalid-field", "receipt_keys must give each recipient a key of their own");
		}
		return keys;
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
			for (int i = 0; i < list.size(); i++) {
				all.putIfAbsent(address(kind + "[" + i + "]", list.get(i)), kind);
			}
		}
		if (all.isEmpty() || all.size() > MAX_RECIPIENTS) {
			throw ProblemException.badRequest("invalid-recipients", "A job needs 1 to " + MAX_RECIPIENTS + " recipients");
		}
		return all;
	}

	/**
	 * The platform's one address rule, the one mail checked the send by: a job mail relays is never refused here for
	 * an address mail accepted (it was, and the mail was dead-lettered after its 202).
	 */
	private static String address(String field, String value) {
		return MailAddress.require(field, value).value();
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

	private static String digest(String jobId, JobRequest request, String from, Map<String, String> recipients,
			Map<String, String> receiptKeys, byte[] eml) {
		try {
			MessageDigest sha = MessageDigest.getInstance("SHA-256");
			String head = jobId + "\n" + request.mailNo() + "\n" + request.office() + "\n" + request.owner() + "\n" + from
					+ "\n" + recipients + "\n" + request.separateSend() + "\n" + new java.util.TreeMap<>(receiptKeys) + "\n";
			sha.update(head.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(sha.digest(eml));
		}
		catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException(e);
		}
	}
}
