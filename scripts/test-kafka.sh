#!/usr/bin/env bash
# A single-node Apache Kafka 4.4 broker in KRaft mode on 127.0.0.1, for the tests of issue 20 (scale-out over
# Kafka), started like scripts/test-postgres.sh: everything from Maven Central, no Docker, no other download.
#
#   scripts/test-kafka.sh start    fetch the broker's jars (once), format its storage (once), start it and wait
#                                  until it has started (its log says so) and accepts connections; idempotent (exit 0 if it already runs)
#   scripts/test-kafka.sh stop     stop the broker this script started (by its pid file, never another one)
#   scripts/test-kafka.sh status   exit 0 if it answers, 1 otherwise
#
# Environment: WEIR_KAFKA_PORT (default 39092; the controller listens on the next port), WEIR_KAFKA_DIR (default
# ${TMPDIR:-/tmp}/weir-kafka: jars, storage, logs, pid file). One node is broker and controller (static
# controller.quorum.voters); the offsets and transaction-state topics have replication factor 1; consumer-group
# timeouts are lowered so that a killed member's partitions move in seconds, not 45 s (KIP-848 minimums).
# org.apache.kafka:kafka_2.13:4.4.0 runs as kafka.Kafka after kafka.tools.StorageTool format; Kafka ships no
# SLF4J binding, so log4j-slf4j-impl is added or the broker logs nothing.
set -uo pipefail

port="${WEIR_KAFKA_PORT:-39092}"
controller=$((port + 1))
dir="${WEIR_KAFKA_DIR:-${TMPDIR:-/tmp}/weir-kafka}"
cluster_id="V2Vpcktha2Z0YVRlc3RzMQ" # a fixed 22-character id: formatting needs one, and a fixed one saves a JVM start
log() { echo "test-kafka: $*" >&2; }

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }

fetch() {
  if [ -s "$dir/classpath.txt" ]; then return 0; fi
  mkdir -p "$dir/fetch"
  cat > "$dir/fetch/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.weir.test</groupId><artifactId>kafka-broker</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>4.4.0</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>2.25.5</version><scope>runtime</scope></dependency>
  </dependencies>
</project>
POM
  log "fetching org.apache.kafka:kafka_2.13:4.4.0 and its runtime dependencies from Maven Central"
  (cd "$dir/fetch" && mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
      -DincludeScope=runtime -Dmdep.outputFile="$dir/classpath.txt") \
    || { rm -f "$dir/classpath.txt"; log "fetching the broker's jars failed"; return 1; }
}

configure() {
  mkdir -p "$dir/data" "$dir/logs"
  cat > "$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller
advertised.listeners=PLAINTEXT://127.0.0.1:$port
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir/data
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=6
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
min.insync.replicas=1
group.initial.rebalance.delay.ms=0
group.min.session.timeout.ms=2000
group.consumer.min.session.timeout.ms=2000
group.consumer.session.timeout.ms=6000
group.consumer.min.heartbeat.interval.ms=500
group.consumer.heartbeat.interval.ms=1000
transaction.abort.timed.out.transaction.cleanup.interval.ms=2000
num.network.threads=2
num.io.threads=2
num.recovery.threads.per.data.dir=1
PROPS
  cat > "$dir/log4j2.properties" <<LOG
status = warn
appender.file.type = File
appender.file.name = FILE
appender.file.fileName = $dir/logs/server.log
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = FILE
logger.state.name = state.change.logger
logger.state.level = WARN
logger.request.name = kafka.request.logger
logger.request.level = WARN
LOG
}

java_opts() { echo "-Xms256m -Xmx512m -Dkafka.logs.dir=$dir/logs -Dlog4j2.configurationFile=$dir/log4j2.properties"; }

start() {
  if answers; then log "a broker already answers on 127.0.0.1:$port"; return 0; fi
  fetch || return 1
  configure
  local cp; cp=$(cat "$dir/classpath.txt")
  if [ ! -f "$dir/data/meta.properties" ]; then
    # shellcheck disable=SC2046
    java $(java_opts) -cp "$cp" kafka.tools.StorageTool format -t "$cluster_id" -c "$dir/server.properties" \
      > "$dir/logs/format.out" 2>&1 || { log "formatting the storage failed: $(tail -n 3 "$dir/logs/format.out")"; return 1; }
  fi
  # the port opens before the broker serves requests: ready is the log line "Kafka Server started" in this start's
  # log (the last start's log is kept as server.log.1)
  if [ -f "$dir/logs/server.log" ]; then mv -f "$dir/logs/server.log" "$dir/logs/server.log.1"; fi
  # shellcheck disable=SC2046
  nohup java $(java_opts) -cp "$cp" kafka.Kafka "$dir/server.properties" > "$dir/logs/stdout.log" 2>&1 &
  echo $! > "$dir/broker.pid"
  for _ in $(seq 1 240); do
    if answers && grep -q "Kafka Server started" "$dir/logs/server.log" 2>/dev/null; then
      log "Kafka 4.4 is up on 127.0.0.1:$port (pid $(cat "$dir/broker.pid"), logs in $dir/logs)"; return 0
    fi
    if ! kill -0 "$(cat "$dir/broker.pid")" 2>/dev/null; then
      log "the broker exited: $(tail -n 5 "$dir/logs/stdout.log" "$dir/logs/server.log" 2>/dev/null)"; return 1
    fi
    sleep 0.5
  done
  log "the broker did not start on 127.0.0.1:$port within 120 s (logs in $dir/logs)"
  return 1
}

stop() {
  [ -f "$dir/broker.pid" ] || { log "no broker started by this script"; return 0; }
  local pid; pid=$(cat "$dir/broker.pid")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && { log "the broker (pid $pid) did not stop in 30 s: killing it"; kill -KILL "$pid"; }
  fi
  rm -f "$dir/broker.pid"
  log "stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) answers ;;
  *) echo "usage: scripts/test-kafka.sh start|stop|status" >&2; exit 2 ;;
esac
