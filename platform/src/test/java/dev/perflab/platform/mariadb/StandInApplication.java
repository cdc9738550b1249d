package dev.perflab.platform.mariadb;

import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
class StandInApplication {
}
