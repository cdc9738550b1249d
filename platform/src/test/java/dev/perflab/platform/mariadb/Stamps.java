package dev.perflab.platform.mariadb;

import java.util.Optional;

import jakarta.persistence.LockModeType;
import jakarta.persistence.QueryHint;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.jpa.repository.QueryHints;

interface Stamps extends JpaRepository<Stamp, Long> {

	@Lock(LockModeType.PESSIMISTIC_WRITE)
	@Query("select s from Stamp s where s.id = :id")
	Optional<Stamp> lockById(Long id);

	@Lock(LockModeType.PESSIMISTIC_WRITE)
	@QueryHints(@QueryHint(name = "jakarta.persistence.lock.timeout", value = "0"))
	@Query("select s from Stamp s where s.id = :id")
	Optional<Stamp> lockByIdNoWait(Long id);
}
