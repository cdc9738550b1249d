package dev.perflab.notifier.notification;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import dev.perflab.notifier.NotifierProperties;

/** Lab switch {@code perflab.notifier.dispatch}: one {@link Dispatch} bean, chosen here and nowhere else. */
@Configuration(proxyBeanMethods = false)
class DispatchConfiguration {

	@Bean(destroyMethod = "close")
	WorkDatabase notifierWorkDatabase(HikariDataSource requests, NotifierProperties properties, MeterRegistry meters) {
		return new WorkDatabase(requests, properties.workPool(), meters);
	}

	/** Takes the work database so that it is closed only after the sends in flight have settled on it. */
	@Bean
	@ConditionalOnProperty(name = "perflab.notifier.dispatch", havingValue = "after-commit-async", matchIfMissing = true)
	ThreadPoolTaskExecutor notifierDispatchExecutor(NotifierProperties properties, WorkDatabase notifierWorkDatabase) {
		NotifierProperties.Executor settings = properties.executor();
		ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
		executor.setCorePoolSize(settings.corePoolSize());
		executor.setMaxPoolSize(settings.maxPoolSize());
		executor.setQueueCapacity(settings.queueCapacity());
		executor.setThreadNamePrefix("dispatch-");
		// refused work is thrown back (AbortPolicy) so the caller can hand it to the sweeper, never dropped
		executor.setRejectedExecutionHandler(new java.util.concurrent.ThreadPoolExecutor.AbortPolicy());
		// a send in flight finishes on shutdown; what is queued stays PENDING and the sweeper of a replica sends it
		executor.setWaitForTasksToCompleteOnShutdown(true);
		executor.setAwaitTerminationSeconds(10);
		return executor;
	}

	@Bean
	@ConditionalOnProperty(name = "perflab.notifier.dispatch", havingValue = "after-commit-async", matchIfMissing = true)
	Dispatch afterCommitAsyncDispatch(ApplicationEventPublisher events, ThreadPoolTaskExecutor notifierDispatchExecutor,
			NotificationStore store, Sender sender, Sweeper sweeper, NotifierProperties properties,
			MeterRegistry meters) {
		return new AfterCommitAsyncDispatch(events, notifierDispatchExecutor, store, sender, sweeper, properties, meters);
	}

	@Bean
	@ConditionalOnProperty(name = "perflab.notifier.dispatch", havingValue = "in-transaction-sync")
	Dispatch inTransactionSyncDispatch(NotificationStore store, Sender sender, NotifierProperties properties) {
		return new InTransactionSyncDispatch(store, sender, properties);
	}
}
