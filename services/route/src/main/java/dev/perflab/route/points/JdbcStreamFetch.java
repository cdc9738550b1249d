package dev.perflab.route.points;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import com.mysql.cj.jdbc.JdbcConnection;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;

/**
 * The fixed design: one range scan of the clustered (route_id, seq) key read through a forward-only, read-only
 * ResultSet with MySQL Connector/J's streaming fetch size ({@code Integer.MIN_VALUE}: rows are read off the socket
 * one at a time instead of the driver buffering all 20k first), each row handed to the sink and dropped at once.
 * The connection goes back to the pool as soon as the last row is read, before the body is finished. A sink that
 * fails (the client went away) cancels the query (KILL QUERY) instead of letting the driver drain the rest.
 */
final class JdbcStreamFetch implements PointsFetch {

	private static final Logger log = LoggerFactory.getLogger(JdbcStreamFetch.class);

	static final String SQL = "SELECT seq, lat, lng FROM route_point WHERE route_id = ? ORDER BY seq";

	private final DataSource dataSource;

	private final int fetchSize;

	private final SQLErrorCodeSQLExceptionTranslator translator;

	JdbcStreamFetch(DataSource dataSource, int fetchSize) {
		this.dataSource = dataSource;
		this.fetchSize = fetchSize;
		// by name: looking the database up would take a connection at start
		this.translator = new SQLErrorCodeSQLExceptionTranslator("MySQL");
	}

	@Override
	public void points(long routeId, PointSink sink) throws IOException {
		try (Connection connection = dataSource.getConnection();
				PreparedStatement select = connection.unwrap(JdbcConnection.class)
					.serverPrepareStatement(SQL, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
			select.setFetchSize(fetchSize);
			select.setLong(1, routeId);
			try (ResultSet rows = select.executeQuery()) {
				while (rows.next()) {
					try {
						sink.point(rows.getInt(1), rows.getDouble(2), rows.getDouble(3));
					}
					catch (IOException e) {
						cancel(select);
						throw e;
					}
				}
			}
		}
		catch (SQLException e) {
			throw translator.translate("stream points of route " + routeId, SQL, e);
		}
	}

	private static void cancel(PreparedStatement select) {
		try {
			select.cancel();
		}
		catch (SQLException e) {
			log.debug("could not cancel a points read whose client went away: {}", e.getMessage());
		}
	}
}
