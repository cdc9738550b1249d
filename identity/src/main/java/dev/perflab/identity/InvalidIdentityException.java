package dev.perflab.identity;

/** An identity token that proves nothing; the message says why (for the 401's detail and the log). */
public class InvalidIdentityException extends RuntimeException {

	public InvalidIdentityException(String message) {
		super(message);
	}

	public InvalidIdentityException(String message, Throwable cause) {
		super(message, cause);
	}
}
