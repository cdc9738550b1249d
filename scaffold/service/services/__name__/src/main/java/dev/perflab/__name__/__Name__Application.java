package dev.perflab.__name__;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class __Name__Application {

	public static void main(String[] args) {
		SpringApplication.run(__Name__Application.class, args);
	}
}
