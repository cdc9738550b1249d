package dev.perflab.mail.send;

/**
 * The lab switch {@code perflab.mail.send-handoff}: how an accepted send is committed and reaches the send
 * service. {@code outbox} (fixed) or {@code nested-requires-new} (seed 000's design, which starved a pool of 10).
 */
interface SendHandoff {

	/** Commits the mail and whatever the hand-off needs; returns the mail number. */
	long commit(Draft draft);
}
