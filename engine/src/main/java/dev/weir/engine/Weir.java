package dev.weir.engine;

/**
 * The public entry point: {@code Weir.pipeline()} starts a {@link PipelineBuilder}.
 * <pre>{@code
 * RunSummary summary = Weir.pipeline()
 *     .journal(Path.of("data/journal"))
 *     .window(TumblingWindows.of(10_000))
 *     .outOfOrderness(5_000)
 *     .allowedLateness(0)
 *     .latePolicy(LatePolicy.DROP)
 *     .onResult(result -> System.out.println(result))
 *     .build()
 *     .runToEnd();
 * }</pre>
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
