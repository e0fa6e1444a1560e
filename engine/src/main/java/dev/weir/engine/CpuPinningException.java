package dev.weir.engine;

import dev.weir.journal.schema.WeirException;

/**
 * A pipeline's threads cannot be pinned to the CPUs asked for ({@link PipelineBuilder#pinStages(int...)},
 * {@link PipelineBuilder#pinPublisher(int)}): a CPU this machine does not have, no native affinity support
 * (OpenHFT Affinity needs JNA and Linux, macOS or Windows), or an affinity the operating system refused (a
 * CPU outside the process's cpuset). Thrown when the configuration is concluded for what can be checked
 * then; a refusal seen when a thread starts fails the run with this cause.
 */
public final class CpuPinningException extends WeirException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message which CPU and why.
     */
    public CpuPinningException(final String message)
    {
        super(message);
    }
}
