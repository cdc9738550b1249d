package dev.perflab.notifier.notification;

import java.util.function.UnaryOperator;

import dev.perflab.notifier.Masking;

/** How a notification reaches its recipient, and how much of that recipient a read may show. */
public enum Channel {

	SMS(Masking::phone), MAIL(Masking::email);

	private final UnaryOperator<String> mask;

	Channel(UnaryOperator<String> mask) {
		this.mask = mask;
	}

	String masked(String recipient) {
		return mask.apply(recipient);
	}

}
