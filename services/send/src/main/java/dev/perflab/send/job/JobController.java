package dev.perflab.send.job;

import java.net.URI;
import java.util.Map;

import jakarta.validation.Valid;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.send.delivery.MailNumber;

/**
 * The internal hand-off API: only mail's outbox relay calls it (the gateway has no route to /internal, the chart's
 * NetworkPolicy lets only mail in). PUT, because a job is named by its mail number and pushing it twice is safe.
 */
@RestController
class JobController {

	private final Jobs jobs;

	JobController(Jobs jobs) {
		this.jobs = jobs;
	}

	@PutMapping(path = "/internal/jobs/{mailNo}", consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<Map<String, Object>> put(@PathVariable String mailNo, @Valid @RequestBody JobRequest request) {
		long no = MailNumber.parse(mailNo);
		boolean created = jobs.accept(no, request);
		Map<String, Object> body = Map.of("mail_no", no, "created", created);
		return created ? ResponseEntity.created(URI.create("/v2/mails/" + no + "/delivery")).body(body)
				: ResponseEntity.ok(body);
	}
}
