package dev.perflab.shortener.id;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.annotation.Scheduled;

import dev.perflab.shortener.ShortenerProperties;

@Configuration(proxyBeanMethods = false)
class IdConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "perflab.shortener.id-strategy", havingValue = "snowflake", matchIfMissing = true)
	static class SnowflakeConfiguration {

		@Bean(destroyMethod = "release")
		WorkerIdLease workerIdLease(StringRedisTemplate redis, ShortenerProperties properties) {
			return new WorkerIdLease(redis, properties.worker().leaseTtl(), properties.worker().acquireWithin());
		}

		@Bean
		IdGenerator snowflakeIds(WorkerIdLease lease, ShortenerProperties properties) {
			return new SnowflakeIds(lease, properties.worker().maxClockRollback().toMillis());
		}

		@Bean
		LeaseRenewal leaseRenewal(WorkerIdLease lease) {
			return new LeaseRenewal(lease);
		}
	}

	@Bean
	Codes codes(ShortenerProperties properties) {
		return Codes.withKey(properties.codeKey());
	}

	@Bean
	@ConditionalOnProperty(name = "perflab.shortener.id-strategy", havingValue = "mongo-sequence")
	IdGenerator mongoSequenceIds(MongoTemplate mongo) {
		return new MongoSequenceIds(mongo);
	}

	static class LeaseRenewal {

		private final WorkerIdLease lease;

		LeaseRenewal(WorkerIdLease lease) {
			this.lease = lease;
		}

		@Scheduled(fixedDelayString = "${perflab.shortener.worker.renew-every:10s}")
		void renew() {
			lease.renew();
		}
	}
}
