package dev.weir.engine.model;

import java.util.List;
import java.util.Objects;

/**
 * One randomly generated test case: the seed that reproduces it with
 * {@link StreamGenerator#generate(long, WindowKind)}, the configuration and the stream in arrival
 * order. Test-only; shares no code with the engine.
 *
 * @param seed   the generator seed.
 * @param config the window and lateness configuration.
 * @param events the events, in arrival (journal) order.
 */
public record GeneratedCase(long seed, ModelConfig config, List<ModelEvent> events)
{
    public GeneratedCase
    {
        Objects.requireNonNull(config, "config");
        events = List.copyOf(events);
    }
}
