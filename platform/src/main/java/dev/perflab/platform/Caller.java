package dev.perflab.platform;

/**
 * The user a request acts for, as the gateway vouched for it in a signed {@code X-Perflab-Identity} token (issuer
 * {@code perflab-gateway}, audience this service, with an office). Declare it as a controller parameter: a request
 * without a token this service verifies is answered 401 before the handler runs. A client-sent
 * {@code X-Perflab-User} header means nothing here.
 */
public record Caller(String user, String office) {
}
