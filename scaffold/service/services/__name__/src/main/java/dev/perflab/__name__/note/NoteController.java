package dev.perflab.__name__.note;

import java.net.URI;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

@RestController
class NoteController {

	private final Notes notes;

	NoteController(Notes notes) {
		this.notes = notes;
	}

	@PostMapping(path = "/v1/__name__/notes", consumes = MediaType.APPLICATION_JSON_VALUE)
	@ApiResponse(responseCode = "201", useReturnTypeSchema = true, description = "Created; Location names the note")
	ResponseEntity<Note> create(Caller caller, @Valid @RequestBody CreateNoteRequest request) {
		Note note = notes.create(caller, request.text());
		return ResponseEntity.created(URI.create("/v1/__name__/notes/" + note.id())).body(note);
	}

	@GetMapping("/v1/__name__/notes/{id}")
	Note get(Caller caller, @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "1",
			maximum = "9223372036854775807")) @PathVariable long id) {
		// another office's note answers exactly like a note that does not exist
		return notes.find(caller.office(), id).orElseThrow(() -> ProblemException.notFound("No note " + id));
	}
}
