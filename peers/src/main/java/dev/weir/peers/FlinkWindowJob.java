package dev.weir.peers;

import java.time.Duration;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.reader.TextLineInputFormat;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.util.OutputTag;

/**
 * The side-by-side job in Apache Flink 1.20 (DataStream API), the way a user would write it for Weir's
 * {@code weir run --input F --window tumbling:W --out-of-orderness D --late side|drop}: a local environment
 * (a MiniCluster in this JVM, default configuration and memory), the CSV read with {@link FileSource} and
 * {@link TextLineInputFormat}, parsed into reused {@link Tuple4}s (object reuse on), bounded-out-of-orderness
 * watermarks ({@code max event time - D - 1}, Flink's convention) emitted after every event whose time advances
 * them, so that Flink's window operator and Weir's engine see the same watermark at every event (DESIGN.md: a
 * watermark after every event), tumbling event-time windows with count/sum/min/max per key and window, late
 * events to {@code sideOutputLateData} or dropped, and the rows written with {@link FileSink}.
 *
 * <p>Result rows are Weir's: {@code window_start,window_end,key,count,sum,min,max,version} (version 0: the allowed
 * lateness is 0, so a window fires once); late rows {@code event_id,event_time,key,value}. The source, parsing and
 * watermarks run with parallelism 1 (one file, read in order, as Weir reads it); the window operator and sinks with
 * the given parallelism.
 *
 * <p>Usage: {@code FlinkWindowJob INPUT RESULTS_DIR LATE_DIR|- WINDOW_MS OUT_OF_ORDERNESS_MS PARALLELISM}. A tool,
 * not a library; prints the job's net runtime on standard error.
 */
public final class FlinkWindowJob
{
    private FlinkWindowJob()
    {
    }

    /**
     * @param args {@code INPUT RESULTS_DIR LATE_DIR|- WINDOW_MS OUT_OF_ORDERNESS_MS PARALLELISM}; {@code -} drops late
     *             events.
     * @throws Exception if the job fails.
     */
    public static void main(final String[] args) throws Exception
    {
        if (args.length != 6)
        {
            System.err.println("usage: FlinkWindowJob INPUT RESULTS_DIR LATE_DIR|- WINDOW_MS OUT_OF_ORDERNESS_MS PARALLELISM");
            System.exit(2);
        }
        final String input = args[0];
        final String resultsDir = args[1];
        final String lateDir = "-".equals(args[2]) ? null : args[2];
        final long windowMs = Long.parseLong(args[3]);
        final long outOfOrdernessMs = Long.parseLong(args[4]);
        final int parallelism = Integer.parseInt(args[5]);

        final StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env.getConfig().enableObjectReuse();
        env.getConfig().setAutoWatermarkInterval(0); // watermarks come from every event, none periodic

        final FileSource<String> source = FileSource.forRecordStreamFormat(new TextLineInputFormat(), new Path(input)).build();
        final DataStream<Tuple4<Long, Long, String, Long>> events = env
            .fromSource(source, WatermarkStrategy.noWatermarks(), "events-csv").setParallelism(1)
            .flatMap(new EventParser()).name("parse").setParallelism(1)
            .assignTimestampsAndWatermarks(WatermarkStrategy
                .<Tuple4<Long, Long, String, Long>>forGenerator(context -> new EveryEventWatermarks<>(outOfOrdernessMs))
                .withTimestampAssigner((event, previous) -> event.f1))
            .name("watermarks").setParallelism(1);

        final OutputTag<Tuple4<Long, Long, String, Long>> lateTag = new OutputTag<>("late") { };
        var windowed = events
            .keyBy(new EventKey())
            .window(TumblingEventTimeWindows.of(Duration.ofMillis(windowMs)))
            .allowedLateness(Duration.ZERO);
        if (lateDir != null)
        {
            windowed = windowed.sideOutputLateData(lateTag);
        }
        final SingleOutputStreamOperator<String> results = windowed.aggregate(new WindowStats(), new WindowRow()).name("window");
        results.sinkTo(FileSink.forRowFormat(new Path(resultsDir), new SimpleStringEncoder<String>()).build()).name("results");
        if (lateDir != null)
        {
            results.getSideOutput(lateTag).map(new LateRow()).name("late-rows")
                .sinkTo(FileSink.forRowFormat(new Path(lateDir), new SimpleStringEncoder<String>()).build()).name("late");
        }

        final JobExecutionResult result = env.execute("weir-peers tumbling " + windowMs + " ms");
        System.err.printf("flink: job net runtime %d ms (parallelism %d)%n", result.getNetRuntime(), parallelism);
    }
}
