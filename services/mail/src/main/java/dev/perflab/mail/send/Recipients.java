package dev.perflab.mail.send;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.mail.internet.InternetAddress;

import dev.perflab.platform.ProblemException;
import dev.perflab.platform.smtp.MailAddress;

/**
 * A send's recipients, each checked by the platform's one address rule ({@link MailAddress}), the rule send checks the
 * job by: an address refused here names its field and index ({@code cc[3]}), and one accepted here is never refused
 * by send (the two checks differed, and a mail answered 202 was dead-lettered).
 */
final class Recipients {

	/** the width of {@code mail_content.to_addrs}, which lists the To: addresses for the mail list */
	static final int MAX_TO_CHARS = 4000;

	private Recipients() {
	}

	static List<InternetAddress> parse(String field, List<String> values) {
		List<InternetAddress> out = new ArrayList<>();
		for (int i = 0; i < values.size(); i++) {
			out.add(MailAddress.require(field + "[" + i + "]", values.get(i)).internetAddress());
		}
		return out;
	}

	/** To: as the mail list shows it; longer than its column is a 400 (it was a 500 from the INSERT) */
	static String toColumn(List<InternetAddress> to) {
		String joined = String.join(", ", to.stream().map(InternetAddress::getAddress).toList());
		if (joined.length() > MAX_TO_CHARS) {
			throw ProblemException.invalidField("to", "holds more than " + MAX_TO_CHARS + " characters of addresses");
		}
		return joined;
	}

	static Set<String> unique(List<InternetAddress> to, List<InternetAddress> cc, List<InternetAddress> bcc) {
		Set<String> all = new LinkedHashSet<>();
		for (List<InternetAddress> list : List.of(to, cc, bcc)) {
			list.forEach(a -> all.add(a.getAddress()));
		}
		return all;
	}
}
