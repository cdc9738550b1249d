package dev.perflab.load.lib;

/**
 * This runner's part of a run that several runners share, as k6's execution segments split one: runner {@code index}
 * (0-based) of {@code runners} takes the whole schedule's arrivals {@code index}, {@code index + runners},
 * {@code index + 2 runners}, ... of every open model (each stage's rate divided by {@code runners}, its arrivals
 * falling between the others' runners'), and an even part of a closed model's VUs (the first {@code VUS mod runners}
 * runners take one more).
 */
public record Share(int runners, int index) {

	/** A run with one runner. */
	public static final Share WHOLE = new Share(1, 0);

	/** This runner's VUs of a closed model of {@code total}. */
	public int vus(int total) {
		return total / this.runners + (this.index < total % this.runners ? 1 : 0);
	}

	/** The number among all runners' VUs of this runner's first VU. */
	public int firstVu(int total) {
		return this.index * (total / this.runners) + Math.min(this.index, total % this.runners);
	}

	/** The number in the whole run of this runner's iteration {@code local} (its arrival, or its turn in a lane). */
	public long number(long local) {
		return local * this.runners + this.index;
	}

}
