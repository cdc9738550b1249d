package dev.perflab.platform;

import java.io.IOException;

/** Thrown while reading a request body past the configured limit. */
class PayloadTooLargeException extends IOException {

	PayloadTooLargeException(long limit) {
		super("The request body is larger than " + limit + " bytes");
	}
}
