package dev.perflab.platform;

/**
 * Another service calling on its own behalf (mail's outbox relay, say), proved by an {@code X-Perflab-Identity} token
 * it signed itself: issuer {@code perflab-<name>}, subject {@code <name>}, audience this service. Declare it as a
 * controller parameter, with {@link CalledBy} to name who may call: no token or a token that proves nothing is 401,
 * a user's token or another service's is 403, before the handler (and its body) is touched.
 */
public record ServiceCaller(String name) {
}
