package dev.perflab.shortener.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import dev.perflab.shortener.id.Snowflake;

/** One worker shared by all benchmark threads: the generator, not the bit layout, is what is measured. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SnowflakeBenchmark {

	private final Snowflake snowflake = new Snowflake(1, System::currentTimeMillis, 50);

	@Benchmark
	public long nextId() {
		return snowflake.nextId();
	}
}
