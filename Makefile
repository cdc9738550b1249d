# perflab: the two commands are `make up` and `make test`. Everything else is a convenience around scripts/.
SHELL := /usr/bin/env bash
.DEFAULT_GOAL := help
# Who `make token` signs for: WHO=bob, or USER=bob given on the command line. The environment's USER (root in a
# login shell as root) is never taken for it.
WHO ?= $(if $(filter command line,$(origin USER)),$(USER),alice)
OFFICE ?= 1

.PHONY: help up down status test verify load seed token bench-ids bench-gateway bench-send bench-route bench-notifier capacity reliability placement headline hpa ab-node bench-warm-start build images ab compare new-service

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

up: ## install what is missing, start stores, gateway and services, seed demo data, print the URLs (AOT_TRAIN=wait: until the AOT trainer beside it is done)
	@scripts/stack/stack.sh up
	@scripts/stack/seed.sh
	@scripts/stack/stack.sh aot-train-report

down: ## stop exactly what `make up` started
	@scripts/stack/stack.sh down

status: ## what the local stack runs
	@scripts/stack/stack.sh status

test: ## everything CI checks: unit, service and end-to-end tests against the real local stores
	@scripts/test/test.sh

verify: ## the checks that need no stores, node or root (tools cached): compile, scripts' tests, chart static checks, infra, generated docs, the docs' tables and sentence length
	@scripts/test/verify.sh

build: ## compile and package every module (no tests)
	@source scripts/lib/env.sh && ./mvnw -q -B -DskipTests install

images: ## OCI images (Jib, no Docker): tarballs in .run/images, or pushed multi-arch with REGISTRY=ghcr.io/you
	@scripts/k8s/images.sh

load: ## load through the gateway: every smoke, or SCENARIO=<name> (make -s load SCENARIO=list: the names) PROFILE=smoke|average|stress|spike|soak RATE= CALLERS=
	@CALLERS=$(CALLERS) scripts/load/load.sh $(or $(SCENARIO),smoke) $(if $(PROFILE),PROFILE=$(PROFILE)) $(if $(RATE),RATE=$(RATE))

ab: ## one lab switch A/B with an HTML report: AB_DIRECT=1 make ab SERVICE=route SWITCH=points-fetch A=jdbc-stream B=interface-projection SCRIPT=route-readers ARGS='ROUTE=1 MODE=sustained' (SCRIPT: a load runner scenario; AB_DIRECT: the service itself, not the gateway; AB_RELEASE=<release>: in a cluster, SCRIPT a loadtest test, ARGS its helm values)
	@scripts/load/ab.sh "$(SERVICE)" "$(SWITCH)" "$(A)" "$(B)" "$(SCRIPT)" $(ARGS)

compare: ## two runs' summaries side by side: make compare A=.run/results/<run> B=.run/results/<run>
	@scripts/load/ab-report.py --compare "$(A)" "$(B)"

seed: ## deterministic demo data (SCALE=n links)
	@scripts/stack/seed.sh

new-service: ## a new service from scaffold/service (its folder, routes, dashboard, values block, pom module, README row): make new-service NAME=<name> [PORT=]
	@python3 scripts/stack/new-service.py "$(NAME)" $(if $(PORT),--port $(PORT))

token: ## print a dev bearer token: make token WHO=alice OFFICE=1 [TTL=seconds, default 3600]
	@scripts/lib/jwt.sh token "$(WHO)" "$(OFFICE)" $(TTL)

bench-ids: ## JMH: Snowflake ids/s at 1 and 16 threads vs the 4,096/ms limit
	@scripts/bench/bench-ids.sh

bench-gateway: ## redirects/s and p50/p99: gateway vs shortener direct vs nginx `return 302`, one run (wrk closed loop, fortio open model)
	@scripts/bench/bench-gateway.sh

bench-warm-start: ## a fresh gateway's first minute with no AOT cache, classes only, classes + method profiles (SECS=60 RATE=60 it/s of the load runner's shortener-smoke)
	@scripts/bench/bench-gateway.sh warm-start $(or $(SECS),60) $(or $(RATE),60)

bench-send: ## seed 000's send: 150 senders, nested-requires-new vs outbox, kill -9 and SMTP faults, delivered mails counted
	@scripts/bench/bench-send.sh

bench-route: ## seed 002: 1,000 readers of a 20k-point route; jdbc-stream (+cache) vs interface-projection vs nginx, one run (waves: load runner, sustained: wrk)
	@scripts/bench/bench-route.sh

bench-notifier: ## seeds 001/003 through the gateway: in-transaction-sync vs after-commit-async, burst, SMS down, kill -9, every SMS counted
	@scripts/bench/bench-notifier.sh

capacity: ## CPU per request and memory per pod of each service's seed mix, one run: docs/capacity.md's pods, cores and nodes for the seeds' targets
	@scripts/bench/bench-capacity.sh

placement: ## the real test nodes, then seed 004's mix and the office day three ways: runner on the load node, on the system node, on the host (PLACEMENT_LOADS="shortener-smoke:120 office-day:4", PAIR_SECONDS=45)
	NODE_TEST=placement scripts/test/test-node.sh

headline: ## the real test nodes, then the seeds' headline figures with every runner on the load node: seed 004's and seed 001's highest rate held with p95 < 50 ms (HEADLINE_P95_MS), seed 002's 1,000 readers through the gateway vs nginx
	NODE_TEST=headline scripts/test/test-node.sh

ab-node: ## the real test nodes, then make ab in the cluster (route's points-fetch by helm upgrade per arm, runners on the load node, one report) and the office day from runners with a token per caller
	NODE_TEST=ab scripts/test/test-node.sh

hpa: ## the real test node, then the gateway's and the shortener's HPAs out and in under load (HPA_PRESTOP=0 HPA_READ_RETRY=none HPA_SHUTDOWN=immediate HPA_SEND_DRAIN=0s: without its mechanisms)
	NODE_TEST=hpa scripts/test/test-node.sh

reliability: ## stores down 20 s, MariaDB frozen 15 s (SIGSTOP), and services killed or stopped under load: 503 problem+json or success, recovery, every 2xx create kept once
	@scripts/test/reliability.sh
