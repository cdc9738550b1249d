package dev.perflab.e2e;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

import dev.perflab.e2e.HostileInputs.Input;
import dev.perflab.e2e.HostileInputs.Operation;
import dev.perflab.e2e.HostileInputs.Parameter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every public operation of every service, as its OpenAPI document (read through the gateway) describes it, gets at
 * least 200 generated requests that must be refused ({@link HostileInputs}), through the real gateway with real
 * tokens (mail's and send's from mail's seeded users, about their own mails and deliveries). None may answer 5xx, every 4xx (and 429) must be {@code application/problem+json}, no write may be
 * accepted, and every table and collection holds as many rows and documents after as before.
 */
class HostileInputTest {

	static final Path ROOT = Path.of(System.getProperty("user.dir"), "..").normalize();

	static final Path ROUTES = Path.of(System.getenv().getOrDefault("PERFLAB_GATEWAY_ROUTES_DIR",
			ROOT.resolve("config/gateway/routes").toString()));

	static final int MIN_INPUTS = 200;

	/** callers to spread the requests over: each stays far below the gateway's per-caller burst */
	static final int CALLERS = 64;

	private static final HttpClient CLIENT = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.followRedirects(HttpClient.Redirect.NEVER)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KB|MB|GB)?", Pattern.CASE_INSENSITIVE);

	record Answer(Operation operation, Input input, int status, String contentType, String body) {
	}

	@Test
	void everyPublicOperationRefusesHostileInputWithProblemsAndWritesNothing() throws Exception {
		Map<String, JsonNode> documents = new TreeMap<>();
		List<Operation> operations = new ArrayList<>();
		for (Map.Entry<String, List<Map<String, Object>>> routes : routeFiles().entrySet()) {
			String service = routes.getKey();
			JsonNode document = document(service);
			documents.put(service, document);
			List<Operation> routed = operations(service, document, maxBodySize(service)).stream()
				.filter(op -> routed(op, routes.getValue()))
				.toList();
			assertThat(routed).as("%s's document names operations the gateway routes", service).isNotEmpty();
			operations.addAll(routed);
		}
		assertThat(documents.get("send").path("paths").propertyNames())
			.as("send's internal API is not documented through the gateway")
			.noneMatch(path -> path.startsWith("/internal"));

		Map<String, Map<String, String>> existing = fixtures();
		List<MailCaller> mailCallers = mailCallers();
		Map<Operation, List<Input>> plan = new LinkedHashMap<>();
		for (Operation operation : operations) {
			Map<String, String> real = switch (operation.service()) {
				case "mail" -> operation.path().contains("/attachments/") ? Map.of("no", MailCaller.ATTACHED, "index", "0")
						: Map.of("no", MailCaller.PLAIN);
				case "send" -> Map.of("ref", MailCaller.DELIVERY);
				default -> existing.getOrDefault(operation.service(), Map.of());
			};
			List<Input> inputs = HostileInputs.of(operation, documents.get(operation.service()), real);
			assertThat(inputs.size()).as("inputs for %s", operation.name()).isGreaterThanOrEqualTo(MIN_INPUTS);
			plan.put(operation, inputs);
		}

		Map<String, Long> before = StoreCounts.settled(Duration.ofSeconds(60));
		long started = System.nanoTime();
		List<Answer> answers = run(plan, mailCallers);
		long elapsed = System.nanoTime() - started;
		Map<String, Long> after = StoreCounts.settled(Duration.ofSeconds(30));
		List<String> written = StoreCounts.differences(before, after);

		List<String> failures = new ArrayList<>();
		for (Answer answer : answers) {
			String failure = failure(answer);
			if (failure != null) {
				failures.add(failure + ": " + answer.operation().service() + " " + answer.input().describe() + " -> "
						+ answer.status() + " " + answer.contentType() + " " + answer.body());
			}
		}
		String report = report(plan, answers, written, elapsed, before.size());
		System.out.println(report);
		Files.createDirectories(Path.of("target"));
		Files.writeString(Path.of("target", "hostile-input-report.txt"), report + String.join("\n", failures) + "\n");

		assertThat(failures).as("hostile requests answered wrongly (of %d)", answers.size()).isEmpty();
		assertThat(written).as("rows or documents written by refused requests").isEmpty();
	}

	/**
	 * A route, a short link and an event of office 1, made with valid requests before the counts are taken: the
	 * reads' real path values, per service and parameter name.
	 */
	private static Map<String, Map<String, String>> fixtures() {
		String token = DevTokens.token("hostile-fixtures", "1");
		HttpResponse<String> route = Gateway.send(Gateway.authed("/v1/routes", token)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("""
					{"name":"hostile input fixture","points":[{"lat":37.5,"lng":127.0},{"lat":37.6,"lng":127.1}]}""")));
		HttpResponse<String> link = Gateway.createLink(token, """
				{"url":"https://example.com/hostile-input-fixture"}""");
		HttpResponse<String> event = Gateway.send(Gateway.authed("/v1/events", token)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("""
					{"title":"hostile input fixture"}""")));
		for (HttpResponse<String> created : List.of(route, link, event)) {
			assertThat(created.statusCode()).as("fixture %s: %s", created.uri(), created.body()).isEqualTo(201);
		}
		return Map.of("route", Map.of("id", String.valueOf(Gateway.json(route).get("id"))), "shortener",
				Map.of("code", String.valueOf(Gateway.json(link).get("code"))), "notifier",
				Map.of("eventId", String.valueOf(Gateway.json(event).get("id"))));
	}

	/** Why an answer is wrong, or null: a 5xx, a 4xx that is no problem, a 429 (it hid the answer), a write taken. */
	private static String failure(Answer answer) {
		if (answer.status() < 0) {
			return "no answer";
		}
		if (answer.status() >= 500) {
			return "server error";
		}
		boolean problem = answer.contentType() != null
				&& answer.contentType().toLowerCase(Locale.ROOT).startsWith("application/problem+json");
		if (answer.status() >= 400 && !problem) {
			return "error that is not problem+json";
		}
		if (answer.status() == 429) {
			return "rate limited (the answer under test was not seen)";
		}
		if (answer.status() < 400 && answer.operation().writes()) {
			return "write accepted";
		}
		return null;
	}

	/**
	 * The seed's mail users of office 1 (alice, bob, user3..user10), each with one of its own mails without and one
	 * with attachments, and the delivery of a mail it sent: mail's and send's reads go past the account lookup and the
	 * ownership check, so a hostile query or header meets the code that reads a real mail or delivery. A caller
	 * without a mail account would be refused first (403), one without deliveries answered 404.
	 */
	record MailCaller(String token, long plain, long attached, String delivery) {

		static final String PLAIN = "plain-mail-of-the-caller";

		static final String ATTACHED = "attached-mail-of-the-caller";

		static final String DELIVERY = "delivery-of-the-caller";

		String target(String target) {
			return target.replace(PLAIN, String.valueOf(plain))
				.replace(ATTACHED, String.valueOf(attached))
				.replace(DELIVERY, delivery);
		}
	}

	private static List<MailCaller> mailCallers() {
		List<MailCaller> callers = new ArrayList<>();
		List<String> logins = Stream.concat(Stream.of("alice", "bob"), IntStream.rangeClosed(3, 10).mapToObj(n -> "user" + n))
			.toList();
		for (int user = 1; user <= logins.size(); user++) {
			String login = logins.get(user - 1);
			String token = DevTokens.token(login, "1");
			Long plain = null;
			Long attached = null;
			// the seed's mails are 4 KB (no attachment), 712 KB (attachments) or 22 MB; oldest first: the seeded mails,
			// before any a test sent (the mailbox grows with every run)
			for (int page = 1; page <= 20 && (plain == null || attached == null); page++) {
				HttpResponse<String> list = Gateway.send(
						Gateway.authed("/v2/mails?sort[received_date]=asc&size=100&page=" + page, token).GET());
				assertThat(list.statusCode()).as("%s's mails: %s", login, list.body()).isEqualTo(200);
				JsonNode mails = Gateway.JSON.readTree(list.body()).path("mails");
				if (mails.isEmpty()) {
					break;
				}
				for (JsonNode mail : mails) {
					long size = mail.path("size").asLong();
					if (plain == null && size < 100_000) {
						plain = mail.path("no").asLong();
					}
					if (attached == null && size > 100_000 && size < 2_000_000) {
						attached = mail.path("no").asLong();
					}
				}
			}
			assertThat(plain).as("a small mail of %s (make seed)", login).isNotNull();
			assertThat(attached).as("a mail with attachments of %s (make seed)", login).isNotNull();
			// the seed numbers office 1's users 1..10 in this order; a mail sent as sender_no of another is refused
			HttpResponse<String> sent = Gateway.send(Gateway.authed("/v2/mails/send", token)
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(Gateway.JSON.writeValueAsString(Map.of("sender_no", user, "to",
						List.of("hostile-fixture@load.perflab.test"), "subject", "hostile input fixture", "content",
						"a delivery to read")))));
			assertThat(sent.statusCode()).as("%s sends a fixture mail: %s", login, sent.body()).isEqualTo(202);
			String delivery = Gateway.JSON.readTree(sent.body()).path("delivery_id").asString();
			// send knows the delivery once mail's outbox relay handed it over
			await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
				.until(() -> Gateway.send(Gateway.authed("/v2/mails/" + delivery + "/delivery", token).GET())
					.statusCode() == 200);
			callers.add(new MailCaller(token, plain, attached, delivery));
		}
		return callers;
	}

	private static List<Answer> run(Map<Operation, List<Input>> plan, List<MailCaller> mailCallers)
			throws InterruptedException {
		List<String> tokens = IntStream.range(0, CALLERS).mapToObj(n -> DevTokens.token("hostile-" + n, "1")).toList();
		List<Answer> answers = Collections.synchronizedList(new ArrayList<>());
		Semaphore inFlight = new Semaphore(16);
		int n = 0;
		try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
			for (Map.Entry<Operation, List<Input>> entry : plan.entrySet()) {
				boolean mail = List.of("mail", "send").contains(entry.getKey().service());
				for (Input generated : entry.getValue()) {
					int caller = n++;
					MailCaller mailCaller = mailCallers.get(caller % mailCallers.size());
					String token = mail ? mailCaller.token() : tokens.get(caller % CALLERS);
					Input input = mail ? generated.withTarget(mailCaller.target(generated.target())) : generated;
					inFlight.acquire();
					executor.submit(() -> {
						try {
							answers.add(send(entry.getKey(), input, token));
						}
						finally {
							inFlight.release();
						}
					});
				}
			}
		}
		return answers;
	}

	private static Answer send(Operation operation, Input input, String token) {
		HttpRequest.BodyPublisher body = input.body() == null ? HttpRequest.BodyPublishers.noBody()
				: input.chunked() ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(input.body()))
						: HttpRequest.BodyPublishers.ofByteArray(input.body());
		try {
			HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(Gateway.URL + input.target()))
				.timeout(Duration.ofSeconds(60))
				.header("Authorization", "Bearer " + token)
				.method(input.method(), body);
			if (input.contentType() != null) {
				request.header("Content-Type", input.contentType());
			}
			input.headers().forEach(request::header);
			HttpResponse<byte[]> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
			String text = new String(response.body(), 0, Math.min(response.body().length, 300), StandardCharsets.UTF_8);
			return new Answer(operation, input, response.statusCode(),
					response.headers().firstValue("Content-Type").orElse(null), text);
		}
		catch (IOException | IllegalArgumentException e) {
			return new Answer(operation, input, -1, null, e.toString());
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return new Answer(operation, input, -1, null, e.toString());
		}
	}

	private static String report(Map<Operation, List<Input>> plan, List<Answer> answers, List<String> written,
			long elapsedNanos, int stores) {
		Map<Operation, Map<Integer, Integer>> histograms = new LinkedHashMap<>();
		plan.keySet().forEach(op -> histograms.put(op, new TreeMap<>()));
		Map<Integer, Integer> total = new TreeMap<>();
		for (Answer answer : answers) {
			histograms.get(answer.operation()).merge(answer.status(), 1, Integer::sum);
			total.merge(answer.status(), 1, Integer::sum);
		}
		StringBuilder out = new StringBuilder("\nHostile input through the gateway\n");
		out.append(String.format("%-10s %-48s %7s  %s%n", "service", "operation", "inputs", "answers (status: count)"));
		for (Map.Entry<Operation, List<Input>> entry : plan.entrySet()) {
			Operation op = entry.getKey();
			out.append(String.format("%-10s %-48s %7d  %s%n", op.service(), op.name(), entry.getValue().size(),
					histograms.get(op)));
		}
		long clientErrors = answers.stream().filter(a -> a.status() >= 400 && a.status() < 500).count();
		long serverErrors = answers.stream().filter(a -> a.status() >= 500).count();
		out.append(String.format("total: %d requests, %d operations, %d 4xx, %d 5xx, %s in %.1f s%n", answers.size(),
				plan.size(), clientErrors, serverErrors, total, elapsedNanos / 1e9));
		out.append("written (rows and documents in ").append(stores).append(" tables and collections): ")
			.append(written.isEmpty() ? "nothing" : String.join(", ", written))
			.append('\n');
		return out.toString();
	}

	/** Each service's routes, by the name of its file: the services the gateway fronts. */
	@SuppressWarnings("unchecked")
	static Map<String, List<Map<String, Object>>> routeFiles() throws IOException {
		Map<String, List<Map<String, Object>>> files = new TreeMap<>();
		try (Stream<Path> list = Files.list(ROUTES)) {
			for (Path file : list.filter(f -> f.getFileName().toString().matches("[^.].*\\.ya?ml")).toList()) {
				try (Reader reader = Files.newBufferedReader(file)) {
					Map<String, Object> yaml = new Yaml().load(reader);
					files.put(file.getFileName().toString().replaceFirst("\\.ya?ml$", ""),
							(List<Map<String, Object>>) yaml.get("routes"));
				}
			}
		}
		return files;
	}

	private static JsonNode document(String service) {
		HttpResponse<String> response = Gateway.send(Gateway.request("/v3/api-docs/" + service).GET());
		assertThat(response.statusCode()).as("%s's OpenAPI document through the gateway: %s", service, response.body())
			.isEqualTo(200);
		return Gateway.JSON.readTree(response.body());
	}

	static List<Operation> operations(String service, JsonNode document, long maxBody) {
		List<Operation> operations = new ArrayList<>();
		for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
			for (Map.Entry<String, JsonNode> method : path.getValue().properties()) {
				if (!List.of("get", "post", "put", "patch", "delete").contains(method.getKey())) {
					continue;
				}
				JsonNode op = method.getValue();
				List<Parameter> parameters = new ArrayList<>();
				for (JsonNode parameter : op.path("parameters")) {
					JsonNode schema = new HostileInputs.Schemas(document).resolve(parameter.path("schema"));
					parameters.add(new Parameter(parameter.path("name").asString(), parameter.path("in").asString(),
							new HostileInputs.Schemas(document).type(schema)));
				}
				JsonNode content = op.path("requestBody").path("content");
				JsonNode body = content.has("application/json") ? content.path("application/json").path("schema") : null;
				operations.add(new Operation(service, method.getKey().toUpperCase(Locale.ROOT), path.getKey(),
						parameters, body, maxBody));
			}
		}
		return operations;
	}

	/** Whether one of the service's routes (its OpenAPI document's own route aside) takes this path and method. */
	@SuppressWarnings("unchecked")
	static boolean routed(Operation operation, List<Map<String, Object>> routes) {
		String concrete = HostileInputs.fill(operation.path(), Map.of());
		for (Map<String, Object> route : routes) {
			if (String.valueOf(route.get("id")).endsWith("-api-docs")) {
				continue;
			}
			boolean path = false;
			boolean method = true;
			for (Object predicate : (List<Object>) route.get("predicates")) {
				String text = String.valueOf(predicate);
				if (text.startsWith("Path=")) {
					path = Stream.of(text.substring(5).split(",")).anyMatch(p -> concrete.matches(regex(p.strip())));
				}
				else if (text.startsWith("Method=")) {
					method = List.of(text.substring(7).split(",")).contains(operation.method());
				}
			}
			if (path && method) {
				return true;
			}
		}
		return false;
	}

	/** A gateway path pattern as a regex: {@code {x}} and {@code *} one segment, {@code /**} anything below. */
	private static String regex(String pattern) {
		StringBuilder out = new StringBuilder();
		Matcher parts = Pattern.compile("/\\*\\*|\\{[^}]*}|\\*|[^{*/]+|/").matcher(pattern);
		while (parts.find()) {
			String part = parts.group();
			out.append(part.equals("/**") ? "(/.*)?" : part.equals("*") ? "[^/]*"
					: part.startsWith("{") ? "[^/]+" : Pattern.quote(part));
		}
		return out.toString();
	}

	/** The service's {@code perflab.http.max-body-size} (16KB unless its application.yaml's first document says). */
	@SuppressWarnings("unchecked")
	static long maxBodySize(String service) throws IOException {
		Path file = ROOT.resolve("services/" + service + "/src/main/resources/application.yaml");
		Object size;
		try (Reader reader = Files.newBufferedReader(file)) {
			size = dig((Map<String, Object>) new Yaml().loadAll(reader).iterator().next(), "perflab", "http",
					"max-body-size");
		}
		Matcher matcher = SIZE.matcher(size == null ? "16KB" : String.valueOf(size).strip());
		assertThat(matcher.matches()).as("max-body-size of %s: %s", service, size).isTrue();
		long number = Long.parseLong(matcher.group(1));
		String unit = matcher.group(2) == null ? "B" : matcher.group(2).toUpperCase(Locale.ROOT);
		return number * switch (unit) {
			case "KB" -> 1024L;
			case "MB" -> 1024L * 1024;
			case "GB" -> 1024L * 1024 * 1024;
			default -> 1L;
		};
	}

	@SuppressWarnings("unchecked")
	private static Object dig(Map<String, Object> map, String... keys) {
		Object node = map;
		for (String key : keys) {
			if (!(node instanceof Map<?, ?> m)) {
				return null;
			}
			node = ((Map<String, Object>) m).get(key);
		}
		return node;
	}
}
