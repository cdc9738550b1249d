package dev.perflab.platform;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.hasSize;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Valid JSON that does not fit the endpoint is never called "not valid JSON": each missing, mistyped or unknown field
 * is named in {@code errors}, by its name on the wire (snake_case here, as in the services).
 */
class ProblemHandlerTest {

	static final JsonMapper JSON = JsonMapper.builder()
		.propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
		.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class)
		.build();

	final MockMvc mvc = MockMvcBuilders.standaloneSetup(new Orders())
		.setControllerAdvice(new ProblemHandler(JSON.deserializationConfig().getPropertyNamingStrategy()))
		.setMessageConverters(new JacksonJsonHttpMessageConverter(JSON))
		.build();

	@Test
	void namesEveryMissingRequiredFieldByItsWireName() throws Exception {
		post("{\"quantity\":1,\"gift_wrap\":true}")
			.andExpect(status().isBadRequest())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value(Problems.BASE + "invalid-field"))
			.andExpect(jsonPath("$.errors", hasSize(2)))
			.andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("customer_no", "items")));
	}

	@Test
	void namesAMissingPrimitiveInsteadOfCallingTheBodyMalformed() throws Exception {
		post("{\"customer_no\":1,\"items\":[\"a\"]}")
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.type").value(Problems.BASE + "invalid-field"))
			.andExpect(jsonPath("$.errors[0].field").value("quantity"))
			.andExpect(jsonPath("$.errors[0].message").value("is required"));
	}

	@Test
	void takesValuesAsTheyAreWrittenNotCoercedToTheFieldsType() throws Exception {
		JsonMapper.Builder builder = JsonMapper.builder()
			.propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
			.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class);
		new PlatformAutoConfiguration().perflabValuesAsWritten().customize(builder);
		JsonMapper strict = builder.build();
		MockMvc services = MockMvcBuilders.standaloneSetup(new Orders())
			.setControllerAdvice(new ProblemHandler(strict.deserializationConfig().getPropertyNamingStrategy()))
			.setMessageConverters(new JacksonJsonHttpMessageConverter(strict))
			.build();
		for (String body : new String[] { "{\"customer_no\":1,\"items\":[false],\"quantity\":1}",
				"{\"customer_no\":1,\"items\":[12],\"quantity\":1}", "{\"customer_no\":1,\"items\":[\"a\"],\"quantity\":1.5}",
				"{\"customer_no\":1.25,\"items\":[\"a\"],\"quantity\":1}" }) {
			// Jackson's own default takes each of them (the text "false", quantity 1)
			post(body).andExpect(status().isOk());
			services.perform(org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post("/orders")
				.contentType(MediaType.APPLICATION_JSON)
				.content(body))
				.andExpect(status().isBadRequest())
				.andExpect(header().string("Content-Type", "application/problem+json"))
				.andExpect(jsonPath("$.errors[0].field").exists());
		}
	}

	@Test
	void takesAWholeNumberWrittenWithAZeroFraction() throws Exception {
		JsonMapper.Builder builder = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
		new PlatformAutoConfiguration().perflabValuesAsWritten().customize(builder);
		JsonMapper strict = builder.build();
		assertThat(strict.readValue("{\"customer_no\":3.0,\"items\":[\"a\"],\"quantity\":2.00}", Order.class))
			.isEqualTo(new Order(3L, java.util.List.of("a"), 2, null));
		assertThat(strict.readValue("{\"customer_no\":null,\"items\":[\"a\"]}", Order.class))
			.as("null and missing as Jackson reads them: null for a box, 0 for a primitive")
			.isEqualTo(new Order(null, java.util.List.of("a"), 0, null));
		assertThatThrownBy(() -> strict.readValue("{\"customer_no\":9223372036854775808,\"items\":[]}", Order.class))
			.as("past a long").isInstanceOf(tools.jackson.databind.exc.MismatchedInputException.class);
		assertThatThrownBy(() -> strict.readValue("{\"customer_no\":\"3\",\"items\":[]}", Order.class))
			.as("a number written as text").isInstanceOf(tools.jackson.databind.exc.MismatchedInputException.class);
		assertThat(strict.readValue("{\"at\":null}", Timed.class)).isEqualTo(new Timed(null));
		assertThatThrownBy(() -> strict.readValue("{\"at\":\"\"}", Timed.class))
			.as("an empty text is no time").isInstanceOf(tools.jackson.databind.exc.MismatchedInputException.class);
		assertThat(JsonMapper.builder().build().readValue("{\"at\":\"\"}", Timed.class))
			.as("Jackson's own reading takes it as none").isEqualTo(new Timed(null));
	}

	record Timed(java.time.Instant at) {
	}

	@Test
	void namesAFieldOfTheWrongType() throws Exception {
		post("{\"customer_no\":\"one\",\"items\":[\"a\"],\"quantity\":1}")
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value("customer_no"))
			.andExpect(jsonPath("$.errors[0].message").value("must be a number"));
		post("{\"customer_no\":1,\"items\":\"a\",\"quantity\":1}")
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[0].field").value("items"))
			.andExpect(jsonPath("$.errors[0].message").value("must be an array"));
	}

	@Test
	void namesAnUnknownField() throws Exception {
		post("{\"customer_no\":1,\"items\":[\"a\"],\"quantity\":1,\"evil\":1}")
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.type").value(Problems.BASE + "unknown-field"))
			.andExpect(jsonPath("$.errors[0].field").value("evil"));
	}

	@Test
	void callsOnlyBrokenJsonMalformed() throws Exception {
		post("{\"customer_no\":1,")
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.type").value(Problems.BASE + "malformed-body"));
	}

	@Test
	void acceptsABodyWithItsOptionalFlagsLeftOut() throws Exception {
		post("{\"customer_no\":1,\"items\":[\"a\"],\"quantity\":2}").andExpect(status().isOk());
	}

	private ResultActions post(String body) throws Exception {
		return mvc.perform(org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post("/orders")
			.contentType(MediaType.APPLICATION_JSON)
			.content(body));
	}

	/** {@code giftWrap}: an optional flag, absent means false; {@code quantity}: a primitive, so absent is missing */
	record Order(@NotNull Long customerNo, @NotNull @Size(min = 1) List<String> items, int quantity, Boolean giftWrap) {
	}

	@Test
	void aStoreThatIsDownIsA503WithRetryAfterAndABugStaysA500() throws Exception {
		mvc.perform(get("/orders/store-down"))
			.andExpect(status().isServiceUnavailable())
			.andExpect(header().string("Retry-After", "5"))
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value(Problems.BASE + "store-unavailable"));
		mvc.perform(get("/orders/bug"))
			.andExpect(status().isInternalServerError())
			.andExpect(jsonPath("$.type").value(Problems.BASE + "internal"));
		// MySQL lost mid-transaction: the rollback fails too, with a plain SQLException of state 08007
		mvc.perform(get("/orders/rollback-lost"))
			.andExpect(status().isServiceUnavailable())
			.andExpect(jsonPath("$.type").value(Problems.BASE + "store-unavailable"));
		// JPA's rollback on the connection HikariCP closed once it broke: "Connection is closed", no SQLState
		mvc.perform(get("/orders/rollback-on-closed"))
			.andExpect(status().isServiceUnavailable())
			.andExpect(jsonPath("$.type").value(Problems.BASE + "store-unavailable"));
		mvc.perform(get("/orders/sql-bug"))
			.andExpect(status().isInternalServerError())
			.andExpect(jsonPath("$.type").value(Problems.BASE + "internal"));
	}

	@RestController
	static class Orders {

		@PostMapping(path = "/orders", consumes = MediaType.APPLICATION_JSON_VALUE)
		String take(@Valid @RequestBody Order order) {
			return "ok";
		}

		/** as Spring Data translates a refused MongoDB or JDBC connection, the driver's failure as its cause */
		@GetMapping("/orders/store-down")
		String storeDown() {
			throw new DataAccessResourceFailureException("store gone",
					new java.sql.SQLNonTransientConnectionException("Connection refused"));
		}

		@GetMapping("/orders/rollback-lost")
		String rollbackLost() {
			org.springframework.transaction.TransactionSystemException rollback = new org.springframework.transaction.TransactionSystemException(
					"JDBC rollback failed", new java.sql.SQLException(
							"Communications link failure during rollback(). Transaction resolution unknown.", "08007"));
			rollback.initApplicationException(new IllegalStateException("the batch insert's answer never came"));
			throw rollback;
		}

		@GetMapping("/orders/rollback-on-closed")
		String rollbackOnClosed() {
			java.sql.SQLException closed = new java.sql.SQLException("Connection is closed");
			// where HikariCP 7 throws it: the closed connection's proxy
			closed.setStackTrace(new StackTraceElement[] {
					new StackTraceElement("com.zaxxer.hikari.pool.ProxyConnection", "lambda$getClosedConnection$0",
							"ProxyConnection.java", 500),
					new StackTraceElement("jdk.proxy3.$Proxy120", "rollback", null, -1) });
			throw new org.springframework.orm.jpa.JpaSystemException(
					new RuntimeException("Unable to rollback against JDBC Connection", closed));
		}

		@GetMapping("/orders/sql-bug")
		String sqlBug() {
			throw new org.springframework.jdbc.UncategorizedSQLException("insert", "INSERT ...",
					new java.sql.SQLException("You have an error in your SQL syntax", "42000"));
		}

		@GetMapping("/orders/bug")
		String bug() {
			throw new IllegalStateException("a bug");
		}
	}
}
