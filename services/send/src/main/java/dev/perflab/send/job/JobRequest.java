package dev.perflab.send.job;

import java.util.List;
import java.util.Map;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/**
 * A delivery job as mail's outbox relay hands it over (snake_case on the wire). It carries everything delivery
 * needs, the EML as base64 included: send never reads mail's tables or files.
 *
 * @param mailNo mail's number for the mail: data only (numbers repeat when mail's database is recreated), the job is
 * named by the id in its path
 * @param office the sender's office
 * @param owner the login that may read the delivery status
 * @param from the envelope sender
 * @param separateSend one message per recipient instead of one message to all
 * @param receiptKeys read receipts: each recipient's own key (mail generated it); when set, each recipient gets their
 * own message carrying their own link
 * @param eml the message, base64
 */
record JobRequest(@NotNull @Positive Long mailNo, @NotNull @Positive Long office, @NotBlank @Size(max = 64) String owner,
		@NotNull String from, @Size(max = 300) List<String> to, @Size(max = 300) List<String> cc,
		@Size(max = 300) List<String> bcc, Boolean separateSend, @Size(max = 300) Map<String, String> receiptKeys,
		@NotNull String eml) {

	JobRequest {
		separateSend = Boolean.TRUE.equals(separateSend);
		receiptKeys = receiptKeys == null ? Map.of() : receiptKeys;
	}

	static List<String> orEmpty(List<String> list) {
		return list == null ? List.of() : list;
	}
}
