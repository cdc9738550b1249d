package dev.perflab.shortener.id;

/** The fixed design: ids made in process, no database round trip. */
class SnowflakeIds implements IdGenerator {

	private final WorkerIdLease lease;

	private final Snowflake snowflake;

	SnowflakeIds(WorkerIdLease lease, long maxRollbackMillis) {
		this.lease = lease;
		this.snowflake = new Snowflake(lease.workerId(), System::currentTimeMillis, maxRollbackMillis);
	}

	@Override
	public long nextId() {
		lease.ensureHeld();
		return snowflake.nextId();
	}
}
