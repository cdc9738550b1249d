package dev.perflab.shortener.bench;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import dev.perflab.shortener.id.Snowflake;

/**
 * Runs {@link SnowflakeBenchmark} with 1 and 16 threads on one worker and prints each score as a share of the
 * layout's limit (4,096 ids per ms per worker), then generates 16 × 1,000,000 ids concurrently and counts
 * duplicates. Seed 004 measured 2,919 ids/s for its generator.
 */
public final class SnowflakeBench {

	static final double LIMIT_PER_SECOND = 4_096_000;

	private SnowflakeBench() {
	}

	public static void main(String[] args) throws Exception {
		int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 5;
		StringBuilder report = new StringBuilder();
		report.append(String.format("%-8s %16s %14s %10s%n", "threads", "ids/s", "error (99.9%)", "of limit"));
		for (int threads : new int[] { 1, 16 }) {
			Options options = new OptionsBuilder().include(SnowflakeBenchmark.class.getName())
				.threads(threads)
				.forks(1)
				.warmupIterations(2)
				.warmupTime(TimeValue.seconds(1))
				.measurementIterations(iterations)
				.measurementTime(TimeValue.seconds(2))
				.jvmArgsAppend("-XX:+UseG1GC", "-Xmx1g")
				.build();
			RunResult result = new Runner(options).runSingle();
			double score = result.getPrimaryResult().getScore();
			double error = result.getPrimaryResult().getScoreError();
			report.append(String.format("%-8d %,16.0f %,14.0f %9.1f%%%n", threads, score, error,
					100 * score / LIMIT_PER_SECOND));
		}
		report.append(String.format("duplicates among 16 x 1,000,000 concurrent ids: %d%n", duplicates(16, 1_000_000)));
		report.append(String.format("seed 004 generator: 2,919 ids/s -> limit is %.0fx that%n",
				LIMIT_PER_SECOND / 2_919));
		System.out.println();
		System.out.print(report);
	}

	static long duplicates(int threads, int perThread) throws InterruptedException {
		Snowflake snowflake = new Snowflake(1, System::currentTimeMillis, 50);
		long[] ids = new long[threads * perThread];
		CountDownLatch start = new CountDownLatch(1);
		Thread[] workers = new Thread[threads];
		for (int t = 0; t < threads; t++) {
			int offset = t * perThread;
			workers[t] = Thread.ofPlatform().start(() -> {
				try {
					start.await();
				}
				catch (InterruptedException e) {
					return;
				}
				for (int i = 0; i < perThread; i++) {
					ids[offset + i] = snowflake.nextId();
				}
			});
		}
		start.countDown();
		for (Thread worker : workers) {
			worker.join();
		}
		Arrays.parallelSort(ids);
		long duplicates = 0;
		for (int i = 1; i < ids.length; i++) {
			if (ids[i] == ids[i - 1]) {
				duplicates++;
			}
		}
		return duplicates;
	}
}
