/**
 * The blank sequence templates of `GET /sequence-templates` (and its deprecated twin): the
 * same for every organization, each satisfying the structural rules (a test checks both
 * that and that they equal the document's example). Bracketed hints are for the user to
 * replace; `{first_name}` and `{company}` are placeholders.
 */
import type { Schemas } from '../openapi/types.ts';

export const sequenceTemplates: readonly Schemas['SequenceTemplate'][] = [
  {
    id: 'email-three-touch',
    name: 'Email, three touches',
    description:
      'An opening email and two follow-ups in the same thread, spaced three and four days apart. Needs one email sender.',
    channels: ['email'],
    sequence: {
      variation_a: [
        {
          id: 1,
          type: 'email',
          subject: '{first_name}, a question about {company}',
          content:
            'Hi {first_name},\n\n[One line on why you are writing to {company} now.]\n\n[What you offer, in one sentence.] Worth a 20-minute call?\n\n[Your name]',
          delay: 0,
        },
        {
          id: 2,
          type: 'email',
          subject: 'Re: {first_name}, a question about {company}',
          content:
            'Hi {first_name}, following up on my note below. [A proof point or short customer story.]\n\n[Your name]',
          delay: 3,
        },
        {
          id: 3,
          type: 'email',
          subject: 'Re: {first_name}, a question about {company}',
          content:
            'Hi {first_name}, last note from me. If [problem] is not a priority at {company}, I will close the loop here.\n\n[Your name]',
          delay: 4,
        },
      ],
    },
  },
  {
    id: 'linkedin-connect-and-message',
    name: 'LinkedIn, connect then message',
    description:
      'A profile view, a connection request with a note, then a conditional: two messages when the request is accepted, nothing more when it is not. Needs one LinkedIn sender.',
    channels: ['linkedin'],
    sequence: {
      variation_a: [
        {
          id: 1,
          type: 'view_profile',
          delay: 0,
        },
        {
          id: 2,
          type: 'linkedin_connection',
          message: 'Hi {first_name}, [why you want to connect with someone at {company}]. Happy to connect.',
          delay: 1,
        },
        {
          id: 3,
          type: 'conditional',
          delay: 3,
          branches: {
            yes: [
              {
                id: 4,
                type: 'linkedin_message',
                message: 'Thanks for connecting, {first_name}. [Your question or offer for {company}.]',
                delay: 1,
              },
              {
                id: 5,
                type: 'linkedin_message',
                message: 'Hi {first_name}, [a short follow-up with a proof point]. Open to a quick call?',
                delay: 4,
              },
            ],
            no: [],
          },
        },
      ],
    },
  },
  {
    id: 'multichannel-email-linkedin',
    name: 'Email and LinkedIn',
    description:
      'An opening email, a profile view and a connection request, then a conditional: a LinkedIn message when the request is accepted, a follow-up email when it is not. Needs one email and one LinkedIn sender.',
    channels: ['email', 'linkedin'],
    sequence: {
      variation_a: [
        {
          id: 1,
          type: 'email',
          subject: '{first_name}, a question about {company}',
          content:
            'Hi {first_name},\n\n[One line on why you are writing to {company} now.]\n\n[What you offer, in one sentence.] Worth a 20-minute call?\n\n[Your name]',
          delay: 0,
        },
        {
          id: 2,
          type: 'view_profile',
          delay: 1,
        },
        {
          id: 3,
          type: 'linkedin_connection',
          message: 'Hi {first_name}, I sent you a note about {company} last week. Happy to connect.',
          delay: 1,
        },
        {
          id: 4,
          type: 'conditional',
          delay: 3,
          branches: {
            yes: [
              {
                id: 5,
                type: 'linkedin_message',
                message: 'Thanks for connecting, {first_name}. Did my email reach you?',
                delay: 1,
              },
            ],
            no: [
              {
                id: 6,
                type: 'email',
                subject: 'Re: {first_name}, a question about {company}',
                content:
                  'Hi {first_name}, following up on my note below. [A proof point or short customer story.]\n\n[Your name]',
                delay: 2,
              },
            ],
          },
        },
      ],
    },
  },
];
