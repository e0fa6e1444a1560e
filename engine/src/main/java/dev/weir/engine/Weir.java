package dev.weir.engine;

/**
 * The public entry point: {@code Weir.pipeline()} starts a {@link PipelineBuilder}.
 * <pre>{@code
 * RunSummary summary = Weir.pipeline()
 *     .journal(Path.of("data/journal"))
 *     .window(TumblingWindows.of(Duration.ofSeconds(10)))
 *     .outOfOrderness(Duration.ofSeconds(5))
 *     .allowedLateness(Duration.ZERO)
 *     .latePolicy(LatePolicy.DROP)
 *     .onResult(result -> System.out.println(result.key() + " " + result.sumText()))
 *     .build()
 *     .runToEnd();
 * }</pre>
 * A service that follows the journal owns a {@link PipelineService} ({@link PipelineBuilder#buildService()}):
 * {@code start()}, then {@code awaitTermination()} (which throws the run's failure) and {@code close()}.
 * <p>
 * Stateless and thread-safe.
 */
public final class Weir
{
    private Weir()
    {
    }

    /**
     * @return a new builder with the defaults documented on {@link PipelineBuilder}.
     */
    public static PipelineBuilder pipeline()
    {
        return new PipelineBuilder();
    }
}
