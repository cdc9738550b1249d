package dev.perflab.load;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.perflab.load.lib.BadInput;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.mail.MailLoad;
import dev.perflab.load.mail.MailSend;
import dev.perflab.load.mail.MailSmoke;
import dev.perflab.load.notifier.NotifierSeed001;
import dev.perflab.load.notifier.NotifierSignup;
import dev.perflab.load.notifier.NotifierSmoke;
import dev.perflab.load.office.OfficeDay;
import dev.perflab.load.reliability.ReliabilityCrash;
import dev.perflab.load.reliability.ReliabilityOutage;
import dev.perflab.load.route.RouteReaders;
import dev.perflab.load.route.RouteSmoke;
import dev.perflab.load.shortener.ShortenerHop;
import dev.perflab.load.shortener.ShortenerReads;
import dev.perflab.load.shortener.ShortenerSmoke;

/**
 * Every scenario the runner knows, by name.
 */
final class Scenarios {

	private static final Map<String, Scenario> ALL = List
		.<Scenario>of(new MailSmoke(), new MailSend("mail-send"), new MailSend("mail-send-smoke"), new MailLoad(),
				new NotifierSmoke(), new NotifierSignup(), new NotifierSeed001(), new RouteSmoke(), new RouteReaders(),
				new ShortenerSmoke(), new ShortenerReads(), new ShortenerHop(), new OfficeDay(), new ReliabilityCrash(),
				new ReliabilityOutage())
		.stream()
		.collect(Collectors.toMap(Scenario::name, Function.identity(), (a, b) -> a, java.util.TreeMap::new));

	private Scenarios() {
	}

	static List<String> names() {
		return List.copyOf(ALL.keySet());
	}

	static Scenario named(String name) {
		Scenario scenario = ALL.get(name);
		if (scenario == null) {
			throw new BadInput("scenario " + name + ": unknown, one of " + String.join(", ", names()));
		}
		return scenario;
	}

}
