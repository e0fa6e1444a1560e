package dev.weir.cli;

/**
 * The {@link OutputSinkContract} of the PostgreSQL sink over journals whose outputs are written several to a document
 * (marker version 5): killed in the pipeline and in its deliveries, which commit positions inside batched documents,
 * the target holds exactly what a delivery of the reference's outputs, one to a document, holds.
 */
class BatchedPostgresOutputSinkContractTest extends PostgresOutputSinkContractTest
{
    @Override
    boolean batched()
    {
        return true;
    }
}
