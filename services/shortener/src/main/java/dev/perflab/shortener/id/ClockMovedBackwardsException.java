package dev.perflab.shortener.id;

import org.springframework.http.HttpStatus;

import dev.perflab.platform.ProblemException;

/** The wall clock went back further than the generator may wait out: refuse rather than risk a duplicate id. */
public class ClockMovedBackwardsException extends ProblemException {

	ClockMovedBackwardsException(long millis) {
		super(HttpStatus.SERVICE_UNAVAILABLE, "clock-moved-backwards",
				"The clock moved back " + millis + " ms; ids are refused until it catches up");
	}
}
