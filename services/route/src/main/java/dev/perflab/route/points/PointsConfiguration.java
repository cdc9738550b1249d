package dev.perflab.route.points;

import javax.sql.DataSource;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.route.RouteProperties;

@Configuration(proxyBeanMethods = false)
class PointsConfiguration {

	@Bean
	@ConditionalOnProperty(name = "perflab.route.points-fetch", havingValue = "jdbc-stream", matchIfMissing = true)
	PointsFetch jdbcStreamFetch(DataSource dataSource, RouteProperties properties) {
		return new JdbcStreamFetch(dataSource, properties.fetchSize());
	}

	@Bean
	@ConditionalOnProperty(name = "perflab.route.points-fetch", havingValue = "interface-projection")
	PointsFetch interfaceProjectionFetch(RoutePointRepository repository, PlatformTransactionManager transactions) {
		TransactionTemplate readOnly = new TransactionTemplate(transactions);
		readOnly.setReadOnly(true);
		return new InterfaceProjectionFetch(repository, readOnly);
	}
}
