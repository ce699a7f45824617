import { Stack } from '@mantine/core';
import { PageHeader } from '../../components/ui/page-header';
import { RecordingsPage } from '../../features/recording';

/** /ops/sessions (issue 16 §3): the ops admin's masked session recordings of their own firm, and their replay. */
export function SessionRecordingsScreen() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="Session recordings"
        description="Recorded sessions of your organisation's users, with every typed value masked, for finding where people get stuck."
      />
      <RecordingsPage />
    </Stack>
  );
}
