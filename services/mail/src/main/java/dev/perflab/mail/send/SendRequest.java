package dev.perflab.mail.send;

import java.util.List;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * Seed 000's send payload (snake_case on the wire). Unknown fields are refused. {@code sender_no}, {@code to},
 * {@code subject} and {@code content} are required; the flags are optional and an absent flag is false (as boxed
 * values: a primitive left out would fail the whole body before any field could be named).
 */
record SendRequest(@Size(max = 64) String certKey, @NotNull Long senderNo, @NotNull @Size(max = 100) List<String> to,
		@Size(max = 100) List<String> cc, @Size(max = 100) List<String> bcc, @NotNull @Size(max = 998) String subject,
		@NotNull @Size(max = 500_000) String content, Boolean important, Boolean isSave, Boolean isSeparateSend,
		Boolean isEncrypt, Boolean isReceiptConfirm) {

	SendRequest {
		important = Boolean.TRUE.equals(important);
		isSave = Boolean.TRUE.equals(isSave);
		isSeparateSend = Boolean.TRUE.equals(isSeparateSend);
		isEncrypt = Boolean.TRUE.equals(isEncrypt);
		isReceiptConfirm = Boolean.TRUE.equals(isReceiptConfirm);
	}

	List<String> toOrEmpty() {
		return to == null ? List.of() : to;
	}

	List<String> ccOrEmpty() {
		return cc == null ? List.of() : cc;
	}

	List<String> bccOrEmpty() {
		return bcc == null ? List.of() : bcc;
	}
}
