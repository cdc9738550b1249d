package dev.perflab.identity;

/** The contract between whoever signs an identity token and the services that verify it. */
public final class Identity {

	/** The request header carrying the compact JWS. */
	public static final String HEADER = "X-Perflab-Identity";

	/** JOSE {@code typ} of an identity token: a user's bearer token (typ JWT) is never accepted in its place. */
	public static final String TYPE = "perflab-identity+jwt";

	/** Issuer of user identities: the gateway, after verifying the user's bearer token. */
	public static final String GATEWAY = "perflab-gateway";

	/** Issuer of mail's outbox relay calls to send. */
	public static final String MAIL = "perflab-mail";

	/** Claim naming the user's office; required in every gateway token. */
	public static final String OFFICE = "office";

	/**
	 * Claims binding a service's token to the one request it was signed for (as DPoP's {@code htm} and {@code htu}):
	 * its method, its path, and the SHA-256 of its body (base64url, no padding). A token captured on the way is then
	 * good for that request only: sent again it repeats an idempotent call, and with another path or body it is
	 * refused.
	 */
	public static final String METHOD = "htm";

	/** See {@link #METHOD}. */
	public static final String PATH = "htu";

	/** See {@link #METHOD}. */
	public static final String BODY_DIGEST = "bdh";

	private Identity() {
	}
}
