package dev.perflab.notifier;

/**
 * The one rule for how much of a guest's phone or a member's address leaves the service in a read: the guestbook's
 * list and a notification's status answer anyone in the office, and a notification's id is sequential, so either
 * would otherwise hand out every number and address by counting up.
 */
public final class Masking {

	private Masking() {
	}

	/** The last four digits; every other character is a {@code *}, so the length stays (the guestbook's rule). */
	public static String phone(String phone) {
		int keep = Math.min(4, phone.length());
		return "*".repeat(phone.length() - keep) + phone.substring(phone.length() - keep);
	}

	/**
	 * The first character of the mailbox and the whole domain, with a fixed {@code ***} between, so the mailbox's
	 * length is not told either: {@code k***@example.com}.
	 */
	public static String email(String address) {
		int at = address.lastIndexOf('@');
		if (at < 1) {
			return "***";
		}
		return address.charAt(0) + "***" + address.substring(at);
	}
}
