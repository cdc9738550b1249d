package dev.perflab.platform.mariadb;

import java.time.Instant;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

@Entity
class Stamp {

	@Id
	Long id;

	Instant at;

	protected Stamp() {
	}

	Stamp(Long id, Instant at) {
		this.id = id;
		this.at = at;
	}
}
