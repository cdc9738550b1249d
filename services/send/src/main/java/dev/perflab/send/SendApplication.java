package dev.perflab.send;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class SendApplication {

	public static void main(String[] args) {
		SpringApplication.run(SendApplication.class, args);
	}
}
