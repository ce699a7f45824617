import { ContactFormSchema } from '@dart/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormErrorAlert } from '../../../components/ui/form-error-alert';
import { CheckIcon } from '../../../components/ui/icons';
import { applyServerErrors } from '../../../lib/form-errors';
import { useSendContactMessage } from '../api/send-contact-message';

export function ContactForm({ defaults }: { defaults?: { name?: string; email?: string; company?: string } }) {
  const form = useForm({
    resolver: zodResolver(ContactFormSchema),
    defaultValues: { name: defaults?.name ?? '', email: defaults?.email ?? '', company: defaults?.company ?? '', message: '' },
  });
  const send = useSendContactMessage();
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ name: string; email: string } | null>(null);
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await send.mutateAsync(values);
      setSent({ name: values.name, email: values.email });
      form.reset();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ['name', 'email', 'company', 'message']));
    }
  });

  if (sent) {
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<CheckIcon />} title="Message sent" role="status">
          Thank you, {sent.name}. Our team will reply to {sent.email}.
        </Alert>
        <Group>
          <Button variant="default" onClick={() => setSent(null)}>
            Send another message
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Contact us">
      <Stack gap="md">
        <FormErrorAlert message={formError} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label="Name" autoComplete="name" required error={errors.name?.message} {...form.register('name')} />
          <TextInput label="Email" type="email" autoComplete="email" required error={errors.email?.message} {...form.register('email')} />
        </SimpleGrid>
        <TextInput label="Company" autoComplete="organization" error={errors.company?.message} {...form.register('company')} />
        <Textarea
          label="Message"
          required
          autosize
          minRows={5}
          maxRows={12}
          placeholder="Tell us about your desk and what you would like to do with Dart."
          error={errors.message?.message}
          {...form.register('message')}
        />
        <Group>
          <Button type="submit" loading={isSubmitting}>
            Send message
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
