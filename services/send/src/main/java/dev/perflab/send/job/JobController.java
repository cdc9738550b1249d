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
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.ServiceCaller;

/**
 * The internal hand-off API: only mail's outbox relay calls it, and proves it with an identity token signed by mail's
 * key (anything else is 401/403 before the body is read; the gateway has no route to /internal and the chart's
 * NetworkPolicy lets only mail in, but neither is what keeps other pods from creating jobs). PUT, because a job is
 * named by the id mail gave the hand-off (never its mail number, which repeats) and pushing it twice is safe.
 */
@RestController
class JobController {

	private final Jobs jobs;

	JobController(Jobs jobs) {
		this.jobs = jobs;
	}

	@PutMapping(path = "/internal/jobs/{jobId}", consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<Map<String, Object>> put(@CalledBy("mail") ServiceCaller caller, @PathVariable String jobId,
			@Valid @RequestBody JobRequest request) {
		if (!Jobs.JOB_ID.matcher(jobId).matches()) {
			throw ProblemException.badRequest("invalid-path", "The job id must be 16-64 of [A-Za-z0-9-]");
		}
		boolean created = jobs.accept(jobId, request);
		Map<String, Object> body = Map.of("delivery_id", jobId, "mail_no", request.mailNo(), "created", created);
		return created ? ResponseEntity.created(URI.create("/v2/mails/" + jobId + "/delivery")).body(body)
				: ResponseEntity.ok(body);
	}
}
