package dev.perflab.mail.send;

import java.util.List;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * Seed 000's send payload (snake_case on the wire). Unknown fields are refused.
 */
record SendRequest(@Size(max = 64) String certKey, @NotNull Long senderNo, @Size(max = 100) List<String> to,
		@Size(max = 100) List<String> cc, @Size(max = 100) List<String> bcc, @NotNull @Size(max = 998) String subject,
		@NotNull @Size(max = 500_000) String content, boolean important, boolean isSave, boolean isSeparateSend,
		boolean isEncrypt, boolean isReceiptConfirm) {

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
