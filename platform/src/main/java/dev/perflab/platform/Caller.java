package dev.perflab.platform;

/**
 * The caller the gateway verified, read from {@code X-Perflab-User} / {@code X-Perflab-Office}. Declare it as a
 * controller parameter: a request without both headers is answered 401 before the handler runs.
 */
public record Caller(String user, String office) {

	public static final String USER_HEADER = "X-Perflab-User";

	public static final String OFFICE_HEADER = "X-Perflab-Office";
}
