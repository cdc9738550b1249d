package dev.perflab.load.mail;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Setup;
import dev.perflab.load.lib.SetupFailed;

/**
 * The mails a mail scenario reads: one per EML shape of the seed (4 KB, 712 KB, 22 MB), found through the gateway,
 * oldest first (the seeded mails, before any a test sent: a mailbox grows with every smoke).
 */
record Mails(long small, long medium, long large) {

	static Mails find(Scenario.Context context) {
		Map<String, String> headers = Callers.setupBearer(context.settings());
		Long small = null;
		Long medium = null;
		Long large = null;
		for (int page = 1; page <= 100 && (small == null || medium == null || large == null); page++) {
			Setup.Reply reply = context.setup()
				.get("/v2/mails?size=100&page=" + page + "&sort%5Breceived_date%5D=asc", headers);
			if (reply.status() != 200) {
				throw new SetupFailed("listing mails failed (" + reply.status() + "): is the mail data seeded (make seed)?");
			}
			for (JsonNode m : reply.json("mails")) {
				long size = m.path("size").asLong();
				long no = m.path("no").asLong();
				if (size > 20_000_000 && large == null) {
					large = no;
				}
				else if (size > 500_000 && size < 1_000_000 && medium == null) {
					medium = no;
				}
				else if (size < 10_000 && small == null) {
					small = no;
				}
			}
		}
		if (small == null || medium == null || large == null) {
			throw new SetupFailed("the seed lacks a mail shape: small " + small + ", medium " + medium + ", large " + large);
		}
		return new Mails(small, medium, large);
	}

	/** The mail iteration {@code number} reads: small, small, medium, large in turn. */
	long pick(long number) {
		return switch ((int) (number % 4)) {
			case 2 -> this.medium;
			case 3 -> this.large;
			default -> this.small;
		};
	}

}
