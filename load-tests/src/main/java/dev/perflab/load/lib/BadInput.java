package dev.perflab.load.lib;

/**
 * A setting the runner refuses before any load is sent: its message names the key and the value (exit 2).
 */
public class BadInput extends RuntimeException {

	public BadInput(String message) {
		super(message);
	}

}
