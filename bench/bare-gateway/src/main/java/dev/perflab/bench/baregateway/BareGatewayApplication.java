package dev.perflab.bench.baregateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Spring Cloud Gateway and one route (application.yaml): what a hop through the framework costs by itself. */
@SpringBootApplication
public class BareGatewayApplication {

	public static void main(String[] args) {
		SpringApplication.run(BareGatewayApplication.class, args);
	}
}
