package dev.perflab.platform.mariadb;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Proves the local MySQL stand-in (MariaDB 10.11 behind MySQL Connector/J, started by scripts/stack/stack.sh) keeps
 * microsecond timestamps and takes real row locks with the SQL Hibernate generates. No web server: nothing here is
 * called, so no caller needs trusting (the shared defaults trust the gateway's key file, which this module has not).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_test",
		"spring.datasource.username=perflab", "spring.datasource.password=perflab",
		"spring.jpa.hibernate.ddl-auto=create-drop", "spring.config.import=classpath:perflab/mariadb-standin.yaml" })
class MariaDbStandInTest {

	@Autowired
	Stamps stamps;

	@Autowired
	TransactionTemplate tx;

	@Test
	void keepsMicrosecondTimestamps() {
		Instant at = Instant.parse("2026-11-22T10:15:30.123456Z");
		stamps.save(new Stamp(1L, at));
		assertThat(stamps.findById(1L).orElseThrow().at).isEqualTo(at);
	}

	@Test
	void aPessimisticLockBlocksASecondLocker() throws Exception {
		stamps.save(new Stamp(2L, Instant.now()));
		CountDownLatch locked = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> tx.executeWithoutResult(status -> {
			stamps.lockById(2L).orElseThrow();
			locked.countDown();
			await(release);
		}));
		assertThat(locked.await(10, TimeUnit.SECONDS)).isTrue();
		assertThatThrownBy(() -> tx.executeWithoutResult(status -> stamps.lockByIdNoWait(2L)))
			.isInstanceOf(PessimisticLockingFailureException.class);
		release.countDown();
		holder.get(10, TimeUnit.SECONDS);
		tx.executeWithoutResult(status -> assertThat(stamps.lockByIdNoWait(2L)).isPresent());
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}
