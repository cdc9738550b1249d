package dev.perflab.mail;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

/**
 * Maps the gateway's verified caller (login, office number) to a mail account. Accounts never change number. Both are
 * compared exactly, as every other service compares them: {@code user_info.login} has a binary collation, and an office
 * is its number written the one way ("01" is no office), so no second spelling reaches someone's mailbox.
 */
@Component
public class Accounts {

	private final JdbcClient jdbc;

	private final Map<Caller, Account> cache = new ConcurrentHashMap<>();

	public Accounts(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	public Account require(Caller caller) {
		Account account = cache.get(caller);
		if (account != null) {
			return account;
		}
		long office = officeNumber(caller.office());
		account = jdbc.sql("SELECT no, email FROM user_info WHERE office_no = ? AND login = ?")
			.params(office, caller.user())
			.query((rs, i) -> new Account(office, rs.getLong("no"), rs.getString("email"), caller.user()))
			.optional()
			.orElseThrow(() -> new ProblemException(HttpStatus.FORBIDDEN, "no-mail-account",
					"The caller has no mail account in this office"));
		cache.put(caller, account);
		return account;
	}

	private static long officeNumber(String office) {
		try {
			long no = Long.parseLong(office);
			if (no > 0 && Long.toString(no).equals(office)) {
				return no;
			}
		}
		catch (NumberFormatException e) {
			// fall through
		}
		throw new ProblemException(HttpStatus.FORBIDDEN, "no-mail-account", "The caller's office is not a mail office");
	}

	/** @param login the caller's login: who may read the delivery status of this account's mail */
	public record Account(long office, long user, String email, String login) {
	}
}
