package dev.perflab.notifier.guestbook;

import java.util.List;

/** One page of an event's guestbook, newest first. */
record Page(long eventId, int page, int size, boolean hasNext, List<Entry> entries) {
}
