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

import dev.perflab.platform.CalledBy;
import dev.perflab.platform.ServiceCaller;
import dev.perflab.send.delivery.MailNumber;

/**
 * The internal hand-off API: only mail's outbox relay calls it, and proves it with an identity token signed by mail's
 * key (anything else is 401/403 before the body is read; the gateway has no route to /internal and the chart's
 * NetworkPolicy lets only mail in, but neither is what keeps other pods from creating jobs). PUT, because a job is
 * named by its mail number and pushing it twice is safe.
 */
@RestController
class JobController {

	private final Jobs jobs;

	JobController(Jobs jobs) {
		this.jobs = jobs;
	}

	@PutMapping(path = "/internal/jobs/{mailNo}", consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<Map<String, Object>> put(@CalledBy("mail") ServiceCaller caller, @PathVariable String mailNo,
			@Valid @RequestBody JobRequest request) {
		long no = MailNumber.parse(mailNo);
		boolean created = jobs.accept(no, request);
		Map<String, Object> body = Map.of("mail_no", no, "created", created);
		return created ? ResponseEntity.created(URI.create("/v2/mails/" + no + "/delivery")).body(body)
				: ResponseEntity.ok(body);
	}
}
